// How long records are kept after the business relationship ends: the numbers the legal texts
// quote (web/src/content/pages/legal/facts.ts reads them from here) and the backend enforces
// (ADR 0031). Change them here and both follow.

/** Contract records and consent proofs (§ 257 HGB, § 147 AO). */
export const contractRetentionYears = 10;

/** KYC outcome and history (§ 8 Abs. 4 GwG). */
export const kycRetentionYears = 5;
