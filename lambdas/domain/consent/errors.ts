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
