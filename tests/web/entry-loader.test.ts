// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryLoaderScript } from '../../web/inline-scripts.ts';

// The entry loader imports the page's entry. When that import fails (a deploy replaced the
// chunks, the network dropped), it marks <html> so CSS can say the page could not start, instead
// of showing "Loading..." (and a blank fallback page) forever.

const html = document.documentElement;

/**
 * Runs the loader as the inline script at the end of <body> would, naming `entry`. Code made by
 * `new Function` cannot `import()` under Vitest, so the script's one `import(` calls `load`.
 */
function runEntryLoader(
  entry: string,
  load: (specifier: string) => Promise<unknown>,
  germanEntry?: string,
): void {
  const parts = entryLoaderScript.split('import(');
  expect(parts).toHaveLength(2);
  const script = document.createElement('script');
  script.dataset.entry = entry;
  if (germanEntry) script.dataset.entryDe = germanEntry;
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
  new Function('load', parts.join('load('))(load);
}

beforeEach(() => {
  delete html.dataset.startFailed;
  delete html.dataset.prerendered;
  delete html.dataset.stale;
  delete html.dataset.locale;
});
afterEach(() => vi.restoreAllMocks());

describe('entry loader', () => {
  it('starts the German entry of the app shell when the head script chose German (ADR 0089)', async () => {
    const load = vi.fn(async () => undefined);
    runEntryLoader('/assets/index-en.js', load, '/assets/index-de.js');
    await vi.waitFor(() => expect(load).toHaveBeenCalledWith('/assets/index-en.js'));
    load.mockClear();
    html.dataset.locale = 'de';
    runEntryLoader('/assets/index-en.js', load, '/assets/index-de.js');
    await vi.waitFor(() => expect(load).toHaveBeenCalledWith('/assets/index-de.js'));
    // A page with one entry (every prerendered page) starts it whatever the choice.
    load.mockClear();
    runEntryLoader('/assets/index-en.js', load);
    await vi.waitFor(() => expect(load).toHaveBeenCalledWith('/assets/index-en.js'));
  });

  it('marks the page data-start-failed when the entry cannot be imported', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn(async () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );

    runEntryLoader('/assets/index-abc.js', load);

    await vi.waitFor(() => expect(html.dataset.startFailed).toBe(''));
    expect(load).toHaveBeenCalledWith('/assets/index-abc.js');
    expect(logged).toHaveBeenCalledWith('the page failed to start', expect.any(TypeError));
  });

  it('marks the stale fallback page too (which starts at once)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    html.dataset.prerendered = '/';
    html.dataset.stale = '';

    runEntryLoader('/assets/index-abc.js', async () => Promise.reject(new Error('offline')));

    await vi.waitFor(() => expect(html.dataset.startFailed).toBe(''));
  });

  it('leaves the page alone when the entry loads', async () => {
    const logged = vi.spyOn(console, 'error');
    const load = vi.fn(async () => ({}));

    runEntryLoader('/assets/index-abc.js', load);

    await vi.waitFor(() => expect(load).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(html.dataset.startFailed).toBeUndefined();
    expect(logged).not.toHaveBeenCalled();
  });
});
