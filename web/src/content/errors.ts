// Copy for pages that could not be shown: a page whose scripts failed (the layout's message) and
// the error boundary's page. The 404 page's copy is web/src/content/pages/not-found.ts.
export const errors = {
  /** Prerendered, shown by CSS (no React) when the page's scripts failed to load or start. */
  startFailed: 'Something stopped this page from loading. Please reload it.',
  unexpected: {
    title: 'Unexpected Application Error!',
    body: 'An unexpected error stopped this page from loading. Please try again in a moment.',
    home: 'Go to the home page',
  },
} as const;
