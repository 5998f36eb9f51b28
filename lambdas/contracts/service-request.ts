import * as z from 'zod/mini';
import { route } from './route.ts';

// The segment dashboards' quick actions as service requests (ADR 0088): an approved member asks
// operations to switch a capability on for their organization; the request is stored, operations
// are emailed (ServiceRequestSubmitted), and the dashboard lists the organization's requests with
// their state. Organization-scoped (ADR 0083): the path's id must be the token's `org_id`.

/** The quick actions, by stable id: the web names them, the API stores and the email shows these. */
export const serviceActions = {
  'mission-analysis': { segment: 'commercial', title: 'Start New Mission Analysis' },
  'fleet-status': { segment: 'commercial', title: 'View Fleet Status' },
  'market-report': { segment: 'commercial', title: 'Generate Market Report' },
  'threat-scan': { segment: 'defense', title: 'Initialize Threat Scan' },
  'intel-reports': { segment: 'defense', title: 'Access Intel Reports' },
  'strategic-planning': { segment: 'defense', title: 'Strategic Planning' },
} as const;
export type ServiceAction = keyof typeof serviceActions;
export const serviceAction = z.enum(
  Object.keys(serviceActions) as [ServiceAction, ...ServiceAction[]],
  'Please choose one of the quick actions',
);

/** Operations answer a request within this many business days (Monday to Friday, UTC). */
export const serviceRequestAnswerBusinessDays = 2;

export const serviceRequestBody = z.strictObject({ action: serviceAction });
export type ServiceRequestBody = z.infer<typeof serviceRequestBody>;

/**
 * One request as the dashboard lists it. `received`: stored and operations told; the only state
 * the product writes until operations get a tool to answer in it (ADR 0088).
 */
export const serviceRequestView = z.strictObject({
  requestId: z.string(),
  action: serviceAction,
  status: z.enum(['received']),
  /** ISO 8601, UTC. */
  requestedAt: z.string(),
  /** The date (YYYY-MM-DD, UTC) by which operations answer: `serviceRequestAnswerBusinessDays` later. */
  answerBy: z.string(),
});
export type ServiceRequestView = z.infer<typeof serviceRequestView>;

/** `created` false: the organization's open request for this action, answered instead of a second. */
export const serviceRequestAccepted = z.strictObject({ request: serviceRequestView, created: z.boolean() });
export type ServiceRequestAccepted = z.infer<typeof serviceRequestAccepted>;

export const serviceRequestList = z.strictObject({ requests: z.array(serviceRequestView) });
export type ServiceRequestList = z.infer<typeof serviceRequestList>;

export const createServiceRequestRoute = route('CreateServiceRequest', {
  auth: 'user',
  body: serviceRequestBody,
  response: serviceRequestAccepted,
  successStatus: 202,
  problems: [
    'organizationMismatch',
    'organizationRoleRequired',
    'organizationApprovalRequired',
    'organizationNotFound',
    'rateLimited',
    'serviceUnavailable',
  ],
});

export const listServiceRequestsRoute = route('ListServiceRequests', {
  auth: 'user',
  response: serviceRequestList,
  successStatus: 200,
  problems: ['organizationMismatch', 'organizationRoleRequired'],
});

/** The date `days` business days (Monday to Friday, UTC) after `from`, as YYYY-MM-DD. */
export function businessDaysAfter(from: Date, days: number): string {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const day = date.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return date.toISOString().slice(0, 10);
}
