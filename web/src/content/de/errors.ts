// Copy for pages that could not be shown: a page whose scripts failed (the layout's message) and
// the error boundary's page. The 404 page's copy is web/src/content/pages/not-found.ts.

import type * as en from '#web/content/errors.ts';
import type { Localized } from '#web/content/localized.ts';

export const errors = {
  /** Prerendered, shown by CSS (no React) when the page's scripts failed to load or start. */
  startFailed: 'Diese Seite konnte nicht geladen werden. Bitte laden Sie sie neu.',
  unexpected: {
    title: 'Unerwarteter Anwendungsfehler!',
    body: 'Ein unerwarteter Fehler hat das Laden dieser Seite verhindert. Bitte versuchen Sie es gleich noch einmal.',
    home: 'Zur Startseite',
  },
} as const satisfies Localized<typeof en.errors>;
