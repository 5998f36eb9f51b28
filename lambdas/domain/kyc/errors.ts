// Domain outcomes of identity verification. The domain knows no HTTP: lambdas/http/problems.ts
// maps each class to its status and problem type, once.

export class ConsentRequiredError extends Error {
  constructor() {
    super('Record your identity-verification consent first');
    this.name = 'ConsentRequiredError';
  }
}

export class AlreadyApprovedError extends Error {
  constructor() {
    super('Your identity is already verified.');
    this.name = 'AlreadyApprovedError';
  }
}

export class VerificationClosedError extends Error {
  constructor() {
    super('Your verification was not approved. A new attempt needs a reviewer to allow it: contact support.');
    this.name = 'VerificationClosedError';
  }
}

/** A decision needs a submitted inquiry: this verification has none (not started, or not finished). */
export class VerificationNotSubmittedError extends Error {
  constructor() {
    super('This verification has no submitted inquiry: there is nothing to decide yet.');
    this.name = 'VerificationNotSubmittedError';
  }
}

/** An admin acting on their own verification (a decision or a new attempt). */
export class OwnVerificationError extends Error {
  constructor() {
    super('Another administrator must decide on your own verification.');
    this.name = 'OwnVerificationError';
  }
}

/** Four-eyes (ADR 0080): the proposer of a decision confirms it again; another admin must. */
export class SecondReviewerRequiredError extends Error {
  constructor() {
    super('You proposed this decision: another administrator must confirm it.');
    this.name = 'SecondReviewerRequiredError';
  }
}

/** A new attempt is allowed only after a rejection. */
export class VerificationNotRejectedError extends Error {
  constructor() {
    super('Only a rejected verification can get a new attempt.');
    this.name = 'VerificationNotRejectedError';
  }
}

/** The person has used every attempt (`maxVerificationAttempts`). */
export class AttemptsExhaustedError extends Error {
  constructor(readonly maxAttempts: number) {
    super(`This person has used all ${maxAttempts} verification attempts.`);
    this.name = 'AttemptsExhaustedError';
  }
}

export class VerificationNotFoundError extends Error {
  constructor() {
    super('This user has no verification.');
    this.name = 'VerificationNotFoundError';
  }
}

/** The state kept changing under us; the caller (or Persona) should try again. */
export class ConcurrentChangeError extends Error {
  constructor() {
    super('The verification changed at the same time. Try again.');
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
