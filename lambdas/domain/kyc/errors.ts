import { errorMessages, messageTemplates } from '#contracts/problem-messages.ts';

// Domain outcomes of identity verification. The domain knows no HTTP: lambdas/http/problems.ts
// maps each class to its status and problem type, once.

export class ConsentRequiredError extends Error {
  constructor() {
    super(errorMessages.consentRequired);
    this.name = 'ConsentRequiredError';
  }
}

export class AlreadyApprovedError extends Error {
  constructor() {
    super(errorMessages.alreadyApproved);
    this.name = 'AlreadyApprovedError';
  }
}

export class VerificationClosedError extends Error {
  constructor() {
    super(errorMessages.verificationClosed);
    this.name = 'VerificationClosedError';
  }
}

/** A decision needs a submitted inquiry: this verification has none (not started, or not finished). */
export class VerificationNotSubmittedError extends Error {
  constructor() {
    super(errorMessages.verificationNotSubmitted);
    this.name = 'VerificationNotSubmittedError';
  }
}

/** An admin acting on their own verification (a decision or a new attempt). */
export class OwnVerificationError extends Error {
  constructor() {
    super(errorMessages.ownVerification);
    this.name = 'OwnVerificationError';
  }
}

/** Four-eyes (ADR 0080): the proposer of a decision confirms it again; another admin must. */
export class SecondReviewerRequiredError extends Error {
  constructor() {
    super(errorMessages.secondReviewerRequired);
    this.name = 'SecondReviewerRequiredError';
  }
}

/** A new attempt is allowed only after a rejection. */
export class VerificationNotRejectedError extends Error {
  constructor() {
    super(errorMessages.verificationNotRejected);
    this.name = 'VerificationNotRejectedError';
  }
}

/** The person has used every attempt (`maxVerificationAttempts`). */
export class AttemptsExhaustedError extends Error {
  constructor(readonly maxAttempts: number) {
    super(messageTemplates.attemptsExhausted(maxAttempts));
    this.name = 'AttemptsExhaustedError';
  }
}

export class VerificationNotFoundError extends Error {
  constructor() {
    super(errorMessages.verificationNotFound);
    this.name = 'VerificationNotFoundError';
  }
}

/** The state kept changing under us; the caller (or Persona) should try again. */
export class ConcurrentChangeError extends Error {
  constructor() {
    super(errorMessages.concurrentChange);
    this.name = 'ConcurrentChangeError';
  }
}

/** The inquiry provider (Persona) failed or answered unexpectedly; adapters throw subclasses. */
export class InquiryProviderError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'InquiryProviderError';
  }
}
