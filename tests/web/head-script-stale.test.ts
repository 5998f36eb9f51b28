// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { headScript } from '../../web/inline-scripts.ts';

// The head script hides HTML made for another URL until React has rendered the right page. The
// 404 page is made for every unknown path and the app shell for no page: hiding either would show
// a blank page until the scripts arrive (and forever without JavaScript).

const html = document.documentElement;
/** What 404.html says (web/scripts/prerender.ts `notFoundPrerendered`; vite-build.test.ts reads it in the build). */
const notFoundPrerendered = '';

function staleAt(pathname: string, prerendered: string | undefined): boolean {
  window.history.replaceState(null, '', pathname);
  if (prerendered === undefined) delete html.dataset.prerendered;
  else html.dataset.prerendered = prerendered;
  delete html.dataset.stale;
  new Function(headScript)();
  return html.dataset.stale !== undefined;
}

beforeEach(() => vi.stubGlobal('matchMedia', () => ({ matches: false })));
afterEach(() => vi.unstubAllGlobals());

describe('head script: stale HTML', () => {
  it('never hides the 404 page, whatever unknown path it answers', () => {
    for (const pathname of ['/no/such/page', '/pricing/extra', '/404.html', '/']) {
      expect(staleAt(pathname, notFoundPrerendered), pathname).toBe(false);
    }
  });

  it('never hides the app shell, which names no page', () => {
    expect(staleAt('/dashboard', undefined)).toBe(false);
  });

  it('shows a prerendered page at its own URL and hides it at another', () => {
    expect(staleAt('/pricing/', '/pricing')).toBe(false);
    expect(staleAt('/pricing/index.html', '/pricing')).toBe(false);
    expect(staleAt('/dashboard', '/')).toBe(true);
  });
});
