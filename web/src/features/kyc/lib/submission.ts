// What /kyc/persona tells the status screen through router state: the user has just submitted
// the inquiry. Until Persona's webhook arrives the server still says `not_started`, which then
// means "pending", not "go back to the start". Kept for a bounded time, so an old history entry
// does not keep showing a review that never started.

export interface KycSubmittedState {
  kycSubmittedAt: number;
}

/** How long after submitting `not_started` still reads as "the webhook is on its way". */
export const submissionGraceMs = 15 * 60 * 1000;

export function submittedState(now = Date.now()): KycSubmittedState {
  return { kycSubmittedAt: now };
}

export function isJustSubmitted(state: unknown, now = Date.now()): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const at = (state as Partial<KycSubmittedState>).kycSubmittedAt;
  return typeof at === 'number' && at <= now && now - at < submissionGraceMs;
}
