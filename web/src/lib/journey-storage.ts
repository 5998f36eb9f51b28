import { storage } from './storage.ts';

// What the journey keeps in the browser, named once. Log In and Log Out clear the journey's data
// (web/src/lib/auth/index.ts); the session rules (web/src/features/session) own their own keys.

/** The registration wizard's progress (values and step; never an agreement's timestamp). */
export const registrationDataKey = 'registration_data';

/** A message to show once on the next page, e.g. after the identity provider's logout round trip. */
export const pendingNoticeKey = 'pending-notice';

export function clearJourneyData(): void {
  storage.remove(registrationDataKey);
}
