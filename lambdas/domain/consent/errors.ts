import type { FieldError } from '#contracts/problem.ts';
import { errorMessages, messageTemplates } from '#contracts/problem-messages.ts';

/** The ledger could not append after its bounded retries: too many concurrent writes to one chain. */
export class ConsentLedgerContentionError extends Error {
  constructor(
    readonly subjectId: string,
    readonly attempts: number,
  ) {
    super(`Could not append to the consent chain after ${attempts} attempts (concurrent writes).`);
    this.name = 'ConsentLedgerContentionError';
  }
}

/** A consent whose statements were not all agreed to: nothing is recorded. */
export class ConsentRefusedError extends Error {
  constructor(readonly fieldErrors: FieldError[]) {
    super(errorMessages.consentRefused);
    this.name = 'ConsentRefusedError';
  }
}

/** The person agreed to a version of the text that is no longer current. */
export class ConsentDocumentChangedError extends Error {
  constructor(readonly currentVersion: string) {
    super(messageTemplates.consentDocumentChanged(currentVersion));
    this.name = 'ConsentDocumentChangedError';
  }
}

/** A withdrawal of a consent that is not standing (never given, or withdrawn already): nothing is appended. */
export class ConsentNotActiveError extends Error {
  constructor(readonly purpose: string) {
    super(errorMessages.consentNotActive);
    this.name = 'ConsentNotActiveError';
  }
}

/** An append made only as a given sequence found that sequence taken: read the chain again. */
export class ConsentChainMovedError extends Error {
  constructor(
    readonly subjectId: string,
    readonly sequence: number,
  ) {
    super(`Sequence ${sequence} of the consent chain was taken by another write.`);
    this.name = 'ConsentChainMovedError';
  }
}
