// Domain outcomes the handlers turn into HTTP problems (the domain knows no HTTP).

export class ConsentRequiredError extends Error {
  constructor() {
    super('Record your identity-verification consent first');
  }
}

export class AlreadyApprovedError extends Error {
  constructor() {
    super('Your identity is already verified.');
  }
}

export class VerificationClosedError extends Error {
  constructor() {
    super('A reviewer rejected your verification. Contact support to try again.');
  }
}

export class VerificationNotFoundError extends Error {
  constructor() {
    super('This user has no verification.');
  }
}

/** The state kept changing under us; the caller (or Persona) should try again. */
export class ConcurrentChangeError extends Error {
  constructor() {
    super('The verification changed at the same time. Try again.');
  }
}
