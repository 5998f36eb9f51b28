// The wait between attempts of an append that lost its sequence to another writer (the consent
// ledger, the admin audit trail): full jitter, so concurrent writers fall out of step.
export const jitteredBackoff = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(400, 20 * 2 ** attempt)));
