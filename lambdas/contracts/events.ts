import * as z from 'zod/mini';
import { flaggedChecks } from './flagged-checks.ts';
import { kycStatus } from './kyc.ts';
import { organizationType } from './organization.ts';

// The events on the custom bus (docs/design.md section 5): detail-type, source and detail schema, once.

export const kycStatusChanged = z.object({
  userId: z.string(),
  status: kycStatus,
  previousStatus: kycStatus,
  inquiryId: z.nullable(z.string()),
  /** `user`: the person started a new attempt a reviewer allowed (rejected -> not_started). */
  decidedBy: z.enum(['persona', 'admin', 'user']),
  occurredAt: z.string(),
  /**
   * The decision's reason code (`lambdas/contracts/kyc-reasons.ts`): the decision email tells the
   * person its message. Absent for changes that are no decision, and on events published before it existed.
   */
  reasonCode: z.optional(z.string().check(z.maxLength(100))),
  /**
   * The status change's stable id (its outbox item), the same on every publish of that change,
   * whereas EventBridge gives each publish a new event id: targets de-duplicate on it (ADR 0034).
   * Optional only so events published before it existed still parse.
   */
  changeId: z.optional(z.string().check(z.minLength(1), z.maxLength(300))),
});
export type KycStatusChanged = z.infer<typeof kycStatusChanged>;

export const registrationSubmitted = z.object({
  userId: z.string(),
  organizationName: z.string(),
  organizationType,
  occurredAt: z.string(),
});
export type RegistrationSubmitted = z.infer<typeof registrationSubmitted>;

/**
 * A registration the API accepted and stored (issue 10, finding 9; ADR 0033): the account work
 * (Auth0 lookup or create, the password ticket, the emails) runs from it, off the request path, so
 * an address with an account is answered as fast as a new one. Only the id travels: the stored
 * request holds the form, and the password-ticket link is created by the target, never on the bus.
 */
export const registrationRequested = z.object({
  registrationId: z.string().check(z.minLength(1), z.maxLength(100)),
});
export type RegistrationRequested = z.infer<typeof registrationRequested>;

/**
 * A verified Persona webhook event, reduced to what processing needs (ADR 0006). The webhook
 * handler publishes it and answers Persona at once; `process-persona-event` applies it. Persona's
 * payload is not forwarded: it may hold personal data, and it could exceed EventBridge's 256 KB
 * (only the names of the failed checks travel, at most ten: ADR 0082's amendment).
 */
export const personaEventReceived = z.object({
  eventId: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  /** UTC with six fractional digits (`normaliseInstant`), so string order is time order. */
  createdAt: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)),
  inquiryId: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Persona's inquiry status when the event fired (diagnostics; the event name decides). */
  inquiryStatus: z.string().check(z.minLength(1), z.maxLength(100)),
  /** The inquiry's reference id: our user's `sub` for inquiries this backend created. */
  referenceId: z.nullable(z.string()),
  /**
   * The checks that failed in the verifications the event's `included` holds (names only: no
   * reasons, no personal data). Absent: the event held no verification (or came from the
   * reconciliation), so it tells nothing about them and the stored summary stays.
   */
  flaggedChecks: z.optional(flaggedChecks),
});
export type PersonaEventReceived = z.infer<typeof personaEventReceived>;

/**
 * A signed-in person asked for a new email-verification link (ADR 0059): the API answers 202 at
 * once and the Management API call runs from this event, so a tenant's exhausted quota delays the
 * email (the bus retries) instead of failing the person. Only the user id travels.
 */
export const verificationEmailRequested = z.object({
  userId: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type VerificationEmailRequested = z.infer<typeof verificationEmailRequested>;

/**
 * An approved member asked operations for a quick action (ADR 0088): the NotifyServiceRequest rule
 * emails the operations address from it. It carries what the email shows, as RegistrationSubmitted
 * does: the organization's name as registered, and no words of the requester (ADR 0072).
 */
export const serviceRequestSubmitted = z.object({
  requestId: z.string().check(z.minLength(1), z.maxLength(100)),
  organizationId: z.string().check(z.minLength(1), z.maxLength(200)),
  organizationName: z.string().check(z.maxLength(300)),
  organizationType,
  /** A quick action's id (`serviceActions` in ./service-request.ts). */
  action: z.string().check(z.minLength(1), z.maxLength(100)),
  requestedBy: z.string().check(z.minLength(1), z.maxLength(200)),
  occurredAt: z.string(),
  /** YYYY-MM-DD: when operations answer by. */
  answerBy: z.string(),
});
export type ServiceRequestSubmitted = z.infer<typeof serviceRequestSubmitted>;

export const domainEvents = {
  KycStatusChanged: { source: 'platform.kyc', detail: kycStatusChanged },
  RegistrationSubmitted: { source: 'platform.registration', detail: registrationSubmitted },
  RegistrationRequested: { source: 'platform.registration', detail: registrationRequested },
  PersonaEventReceived: { source: 'platform.kyc', detail: personaEventReceived },
  VerificationEmailRequested: { source: 'platform.account', detail: verificationEmailRequested },
  ServiceRequestSubmitted: { source: 'platform.organization', detail: serviceRequestSubmitted },
} as const;

export type DomainEvent =
  | { detailType: 'KycStatusChanged'; detail: KycStatusChanged }
  | { detailType: 'RegistrationSubmitted'; detail: RegistrationSubmitted }
  | { detailType: 'RegistrationRequested'; detail: RegistrationRequested }
  | { detailType: 'PersonaEventReceived'; detail: PersonaEventReceived }
  | { detailType: 'VerificationEmailRequested'; detail: VerificationEmailRequested }
  | { detailType: 'ServiceRequestSubmitted'; detail: ServiceRequestSubmitted };
