import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const css = await readFile(new URL('../../../web/src/styles/tokens.css', import.meta.url), 'utf8');

/** Every colour token, declared once as `light-dark(<light>, <dark>)`: [name, light, dark]. */
const palette = [...css.matchAll(/--([\w-]+):\s*light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/gi)].map(
  (m) => [m[1], m[2], m[3]] as [string, string, string],
);

/**
 * The colours the rule for `selector` shows: its `color-scheme` picks each token's light or dark
 * value. `light dark` (the system decides) is read as a system that prefers dark.
 */
function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(selector);
  const block = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  const scheme = /color-scheme:\s*([\w ]+);/.exec(block)?.[1]?.trim();
  const side = scheme === 'light' ? 1 : scheme === 'dark' || scheme === 'light dark' ? 2 : undefined;
  return side ? Object.fromEntries(palette.map((token) => [token[0], token[side]])) : {};
}

function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

// [foreground, background, minimum ratio]: text needs 4.5:1, borders and focus rings 3:1 (WCAG AA).
const pairs: [string, string, number][] = [
  ['text', 'bg', 4.5],
  ['text', 'surface', 4.5],
  ['muted', 'bg', 4.5],
  ['muted', 'surface', 4.5],
  ['accent', 'bg', 4.5],
  ['accent-text', 'accent', 4.5],
  ['error', 'bg', 4.5],
  ['success', 'bg', 4.5],
  ['border', 'bg', 3],
  ['focus', 'bg', 3],
];

describe.each([
  ['light', ':root[data-theme="light"]'],
  ['dark', ':root[data-theme="dark"]'],
])('%s theme colours', (_, selector) => {
  const theme = tokens(selector);

  it.each(pairs)('--color-%s on --color-%s meets %s:1', (fg, bg, minimum) => {
    const foreground = theme[`color-${fg}`];
    const background = theme[`color-${bg}`];
    expect(foreground, fg).toBeDefined();
    expect(background, bg).toBeDefined();
    expect(contrast(foreground ?? '', background ?? '')).toBeGreaterThanOrEqual(minimum);
  });
});

it('uses the same dark palette for the no-JavaScript system preference', () => {
  expect(tokens(':root:not([data-theme])')).toEqual(tokens(':root[data-theme="dark"]'));
});
