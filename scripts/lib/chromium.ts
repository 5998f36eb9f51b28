// Debian's chromium, never a downloaded browser; flags keep it off the (closed) network.
// The stack tests (tests/helpers/browser.ts) and the Lighthouse bench (scripts/bench/web.ts) both
// launch it so.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every headless Chromium here runs with (tests and the Lighthouse bench). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
