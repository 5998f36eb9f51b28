import { type ErrorMessage, errorMessages } from '#contracts/problem-messages.ts';

// Refusals and failures shared across features. The domain knows no HTTP: lambdas/http/problems.ts
// maps each class to its status, problem type and headers, once.

/** The request acts for another account (a body `user_id` that is not the token's `sub`). */
export class NotOwnAccountError extends Error {
  constructor() {
    super(errorMessages.notOwnAccount);
    this.name = 'NotOwnAccountError';
  }
}

/**
 * An organization-scoped route called with a token that is not for that organization: another
 * organization's `org_id`, or none (a login without the organization). ADR 0083.
 */
export class OrganizationMismatchError extends Error {
  constructor() {
    super(errorMessages.organizationMismatch);
    this.name = 'OrganizationMismatchError';
  }
}

/** The token is for the organization, but the caller holds none of the roles the route allows. */
export class OrganizationRoleRequiredError extends Error {
  constructor() {
    super(errorMessages.organizationRoleRequired);
    this.name = 'OrganizationRoleRequiredError';
  }
}

/** The organization has no record in the product (one registration did not create). */
export class OrganizationNotFoundError extends Error {
  constructor() {
    super(errorMessages.organizationNotFound);
    this.name = 'OrganizationNotFoundError';
  }
}

/** The caller's email address is not verified yet. */
export class EmailNotVerifiedError extends Error {
  constructor() {
    super(errorMessages.emailNotVerified);
    this.name = 'EmailNotVerifiedError';
  }
}

/** A valid token whose account no longer exists. */
/** The caller was removed from their organization (ADR 0084): nothing of it is theirs any more. */
export class OrganizationMembershipEndedError extends Error {
  constructor() {
    super(errorMessages.organizationMembershipEnded);
    this.name = 'OrganizationMembershipEndedError';
  }
}

/** A member whose own identity verification is not approved yet (an invitation, a service request). */
export class OrganizationApprovalRequiredError extends Error {
  constructor(message: ErrorMessage = errorMessages.approvalRequiredToInvite) {
    super(message);
    this.name = 'OrganizationApprovalRequiredError';
  }
}

/** A service request for a quick action of the other segment's dashboard (ADR 0088): a 400. */
export class ServiceActionNotOfferedError extends Error {
  constructor() {
    super(errorMessages.serviceActionNotOffered);
    this.name = 'ServiceActionNotOfferedError';
  }
}

/** The invited address is already a member. */
export class AlreadyMemberError extends Error {
  constructor(message: ErrorMessage = errorMessages.alreadyMember) {
    super(message);
    this.name = 'AlreadyMemberError';
  }
}

/** The invited address has a pending invitation already. */
export class InvitationPendingError extends Error {
  constructor() {
    super(errorMessages.invitationPending);
    this.name = 'InvitationPendingError';
  }
}

export class InvitationNotFoundError extends Error {
  constructor(message: ErrorMessage = errorMessages.invitationNotFound) {
    super(message);
    this.name = 'InvitationNotFoundError';
  }
}

export class MemberNotFoundError extends Error {
  constructor() {
    super(errorMessages.memberNotFound);
    this.name = 'MemberNotFoundError';
  }
}

/** The change would leave the organization without an administrator. */
export class LastOrganizationAdminError extends Error {
  constructor(message: ErrorMessage = errorMessages.lastOrganizationAdmin) {
    super(message);
    this.name = 'LastOrganizationAdminError';
  }
}

export class AccountNotFoundError extends Error {
  constructor() {
    super(errorMessages.accountNotFound);
    this.name = 'AccountNotFoundError';
  }
}

/**
 * A per-subject limit was hit; `retryAfterSeconds` is what is left of its window. The message is
 * one of `messageTemplates` (#contracts/problem-messages.ts), so it has its German.
 */
export class RateLimitedError extends Error {
  constructor(
    readonly action: string,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = 'RateLimitedError';
  }
}

/** The user directory (Auth0) kept failing (429/5xx/timeouts) for the whole retry budget. */
export class DirectoryUnavailableError extends Error {
  constructor(
    readonly operation: string,
    readonly statusCode: number | undefined,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Auth0 ${operation} failed after ${attempts} attempt(s) (last status ${statusCode ?? 'timeout'})`,
      options,
    );
    this.name = 'DirectoryUnavailableError';
  }
}

/** A data-deletion confirmation token that is unknown, already used or expired (one answer for all). */
export class DeletionConfirmationInvalidError extends Error {
  constructor() {
    super(errorMessages.deletionConfirmationInvalid);
    this.name = 'DeletionConfirmationInvalidError';
  }
}

/** The caller has no pending data-deletion request of this id (another's reads the same). */
export class DeletionRequestNotFoundError extends Error {
  constructor() {
    super(errorMessages.deletionRequestNotFound);
    this.name = 'DeletionRequestNotFoundError';
  }
}

/** The caller's data-deletion request is being carried out: too late to cancel it. */
export class DeletionNotCancellableError extends Error {
  constructor() {
    super(errorMessages.deletionNotCancellable);
    this.name = 'DeletionNotCancellableError';
  }
}

/** The data store (DynamoDB) kept failing (network, timeouts, throttling, 5xx) for the whole retry budget. */
export class StorageUnavailableError extends Error {
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`DynamoDB ${operation} failed: the store is not answering`, options);
    this.name = 'StorageUnavailableError';
  }
}
