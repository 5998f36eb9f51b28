// What the session rules say (issue 9, section 3). The texts are exact: the tests compare them
// verbatim and the end-to-end journeys look for them on screen.
import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/session.ts';

export const sessionMessages = {
  /** Five minutes before the 60-minute maximum; shown 10 s. */
  expiringSoon: 'Sitzung läuft bald ab',
  /** The 60 minutes ran out while the session was open (a tab's rules ended it). */
  maximumDuration: 'Maximale Sitzungsdauer (60 Minuten) überschritten',
  /** The user came back (the app opened, a tab came to the front) to a session already past them. */
  maximumDurationReached: 'Maximale Sitzungsdauer (60 Minuten) erreicht',
  /** After 4 minutes without activity; shown until answered (ADR 0057). */
  inactivityWarning: 'Sie werden in 1 Minute abgemeldet',
  /** The inactivity warning's action: counts as activity. */
  staySignedIn: 'Angemeldet bleiben',
  inactivity: 'Abgemeldet nach 5 Minuten Inaktivität',
  hiddenTab: 'Abgemeldet, weil der Tab 5 Minuten lang inaktiv war',
  /** A failed token refresh, or a session record that vanished. */
  expired: 'Sitzung abgelaufen. Bitte melden Sie sich aus Sicherheitsgründen erneut an.',
  /** Told to the other open tabs when the user logs out in one of them. */
  signedOutElsewhere: 'Sie haben sich in einem anderen Tab abgemeldet.',
} as const satisfies Localized<typeof en.sessionMessages>;
