// What the session rules say (issue 9, section 3). The texts are exact: the tests compare them
// verbatim and the end-to-end journeys look for them on screen.
export const sessionMessages = {
  /** Five minutes before the 60-minute maximum; shown 10 s. */
  expiringSoon: 'Session expiring soon',
  /** The 60 minutes ran out while the session was open (a tab's rules ended it). */
  maximumDuration: 'Maximum session duration (60 minutes) exceeded',
  /** The user came back (the app opened, a tab came to the front) to a session already past them. */
  maximumDurationReached: 'Maximum session duration (60 minutes) reached',
  /** After 4 minutes without activity; shown until answered (ADR 0057). */
  inactivityWarning: 'You will be logged out in 1 minute',
  /** The inactivity warning's action: counts as activity. */
  staySignedIn: 'Stay signed in',
  inactivity: 'Logged out due to 5 minutes of inactivity',
  hiddenTab: 'Logged out due to tab being inactive for 5 minutes',
  /** A failed token refresh, or a session record that vanished. */
  expired: 'Session expired. Please log in again for security.',
  /** Told to the other open tabs when the user logs out in one of them. */
  signedOutElsewhere: 'You logged out in another tab.',
} as const;
