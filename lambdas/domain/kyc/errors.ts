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
    super('A reviewer rejected your verification. Contact support to try again.');
    this.name = 'VerificationClosedError';
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
