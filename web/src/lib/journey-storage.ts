import { storage } from './storage.ts';

// What the journey keeps in the browser, named once. Log In and Log Out clear the journey's data
// (web/src/lib/auth/index.ts); the session rules (web/src/features/session) own their timers' keys.

/** The registration wizard's progress (values and step; never an agreement's timestamp). */
export const registrationDataKey = 'registration_data';

/** The session rules' keys (DESIGN: kept across reloads, shared by the site's open tabs). */
export const sessionKeys = {
  startTime: 'sessionStartTime',
  lastActiveRoute: 'lastActiveRoute',
  lastActiveTab: 'lastActiveTab',
} as const;

/** A message to show once on the next page, e.g. after the identity provider's logout round trip. */
export const pendingNoticeKey = 'pending-notice';

export function clearJourneyData(): void {
  storage.remove(registrationDataKey);
}

export function clearSessionData(): void {
  for (const key of Object.values(sessionKeys)) storage.remove(key);
}
