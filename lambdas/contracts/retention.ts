// How long records are kept after the business relationship ends, and how soon a deletion request
// is answered: the numbers the legal texts quote (web/src/content/pages/legal/facts.ts reads them
// from here) and the backend enforces (ADR 0031). Change them here and both follow.

/** Contract records and consent proofs (§ 257 HGB, § 147 AO). */
export const contractRetentionYears = 10;

/** KYC outcome and history (§ 8 Abs. 4 GwG). */
export const kycRetentionYears = 5;

/** 30 days after confirmation: the answer deadline of GDPR Art. 12(3). */
export const deletionDeadlineDays = 30;

/** How long the emailed link that confirms a data-deletion request works. */
export const deletionConfirmationHours = 24;
