import * as z from 'zod/mini';
import { route } from './route.ts';
import { type ServiceAction, serviceActions } from './service-actions.ts';

export {
  businessDaysAfter,
  type ServiceAction,
  serviceActions,
  serviceRequestAnswerBusinessDays,
} from './service-actions.ts';

// The segment dashboards' quick actions as service requests (ADR 0088): an approved member asks
// operations to switch a capability on for their organization; the request is stored, operations
// are emailed (ServiceRequestSubmitted), and the dashboard lists the organization's requests with
// their state. Organization-scoped (ADR 0083): the path's id must be the token's `org_id`.

export const serviceRequestMessages = {
  action: 'Please choose one of the quick actions',
} as const;

export const serviceAction = z.enum(
  Object.keys(serviceActions) as [ServiceAction, ...ServiceAction[]],
  serviceRequestMessages.action,
);

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
    'organizationMembershipEnded',
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
  problems: ['organizationMismatch', 'organizationRoleRequired', 'organizationMembershipEnded'],
});
