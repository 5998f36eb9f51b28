import type { DomainEvent } from '#contracts/events.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { errorMessages } from '#contracts/problem-messages.ts';
import {
  businessDaysAfter,
  type ServiceAction,
  type ServiceRequestView,
  serviceActions,
  serviceRequestAnswerBusinessDays,
} from '#contracts/service-request.ts';
import { type Caller, requireOrganization } from '../caller.ts';
import {
  OrganizationApprovalRequiredError,
  OrganizationMembershipEndedError,
  OrganizationNotFoundError,
  ServiceActionNotOfferedError,
} from '../errors.ts';
import type { Clock, EventPublisher, KycStateReader, OrganizationRecords, RateLimiter } from '../ports.ts';
import { withinSignedInLimit } from '../signed-in-limits.ts';

// The quick actions as service requests (ADR 0088). They belong to the organization: every member
// sees its requests, and it has at most one open request per action (a second member's, or a
// second click's, is answered with the open one). Only a member whose own identity verification
// is approved may ask. The request is stored first, then ServiceRequestSubmitted published and the
// request marked queued; a request found stored but not queued (the publish failed) is published
// again, and the notifier sends one email per request id, so nothing is lost or sent twice.

/** A stored request: the view, and what the store and the email need besides. */
export interface ServiceRequestRecord extends ServiceRequestView {
  organizationId: string;
  organizationName: string;
  organizationType: OrganizationType;
  /** The member who asked (`sub`). */
  requestedBy: string;
  /** ServiceRequestSubmitted was published for it. */
  queued: boolean;
}

export interface ServiceRequests {
  /** Stores the request unless the organization has one for its action: answers the stored one then. */
  createOnce(record: ServiceRequestRecord): Promise<{ created: boolean; record: ServiceRequestRecord }>;
  markQueued(organizationId: string, action: ServiceAction): Promise<void>;
  list(organizationId: string): Promise<ServiceRequestRecord[]>;
  /** The organization's records hold the caller as removed (a token outlives the removal). */
  memberRemoved(organizationId: string, userId: string): Promise<boolean>;
}

export interface ServiceRequestDeps {
  requests: ServiceRequests;
  organizations: Pick<OrganizationRecords, 'get'>;
  kyc: KycStateReader;
  limiter: RateLimiter;
  events: EventPublisher;
  clock: Clock;
  newId: () => string;
}

const segmentOf = (type: OrganizationType) =>
  type === 'defense' || type === 'government' ? 'defense' : 'commercial';

/**
 * The token's `org_id` and a role there (ADR 0083), then the organization's records: a member an
 * `org_admin` removed is refused at once, not when their token expires (ADR 0084).
 */
async function requireMember(requests: ServiceRequests, caller: Caller, organizationId: string) {
  requireOrganization(caller, organizationId);
  if (await requests.memberRemoved(organizationId, caller.userId))
    throw new OrganizationMembershipEndedError();
}

export function toServiceRequestView(record: ServiceRequestRecord): ServiceRequestView {
  const { requestId, action, status, requestedAt, answerBy } = record;
  return { requestId, action, status, requestedAt, answerBy };
}

export function requestService(deps: ServiceRequestDeps) {
  return async (input: { caller: Caller; organizationId: string; action: ServiceAction }) => {
    const { caller, organizationId, action } = input;
    await requireMember(deps.requests, caller, organizationId);
    const state = await deps.kyc.getState(caller.userId);
    if (state?.status !== 'approved') {
      throw new OrganizationApprovalRequiredError(errorMessages.approvalRequiredForService);
    }
    const organization = await deps.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError();
    if (serviceActions[action].segment !== segmentOf(organization.organizationType)) {
      throw new ServiceActionNotOfferedError();
    }
    return withinSignedInLimit(deps.limiter, 'service-request', caller.userId, async () => {
      const now = deps.clock.now();
      const { created, record } = await deps.requests.createOnce({
        requestId: deps.newId(),
        action,
        status: 'received',
        requestedAt: now.toISOString(),
        answerBy: businessDaysAfter(now, serviceRequestAnswerBusinessDays),
        organizationId,
        organizationName: organization.displayName,
        organizationType: organization.organizationType,
        requestedBy: caller.userId,
        queued: false,
      });
      if (!record.queued) {
        const event: DomainEvent = {
          detailType: 'ServiceRequestSubmitted',
          detail: {
            requestId: record.requestId,
            organizationId,
            organizationName: record.organizationName,
            organizationType: record.organizationType,
            action: record.action,
            requestedBy: record.requestedBy,
            occurredAt: record.requestedAt,
            answerBy: record.answerBy,
          },
        };
        await deps.events.publish([event]);
        await deps.requests.markQueued(organizationId, action);
      }
      return { created, request: toServiceRequestView(record) };
    });
  };
}

export function listServiceRequests(deps: Pick<ServiceRequestDeps, 'requests'>) {
  return async (input: { caller: Caller; organizationId: string }) => {
    await requireMember(deps.requests, input.caller, input.organizationId);
    const records = await deps.requests.list(input.organizationId);
    return records.sort((a, b) => b.requestedAt.localeCompare(a.requestedAt)).map(toServiceRequestView);
  };
}
