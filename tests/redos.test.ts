import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from 'recheck';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

// Every regular expression of the backend and the web app, checked for ReDoS by recheck (ADR 0071):
// each regex literal and each `RegExp(...)` in lambdas/ and web/src/, found by parsing the sources,
// so a new one is covered the day it is written. One that recheck reports is either fixed or listed
// below with the reason it is safe where it runs; a `RegExp` built from a non-literal pattern must be
// listed too, since nothing here can check it.

const root = fileURLToPath(new URL('../', import.meta.url));

/** Source files below `dir`, skipping dependencies and build outputs. */
function sourcesBelow(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sourcesBelow(file);
    return /\.(ts|tsx|mts|cts|mjs|cjs|js)$/.test(entry.name) ? [file] : [];
  });
}

interface FoundRegex {
  file: string;
  /** The pattern's source, or undefined for `RegExp(...)` with a pattern that is not a string literal. */
  pattern: string | undefined;
  flags: string;
}

const stringLiteral = (node: unknown): string | undefined => {
  const literal = node as { type?: string; value?: unknown } | undefined;
  return literal?.type === 'Literal' && typeof literal.value === 'string' ? literal.value : undefined;
};

function regexesIn(file: string): FoundRegex[] {
  const parsed = parseSync(file, readFileSync(path.join(root, file), 'utf8'));
  if (parsed.errors.length > 0) throw new Error(`${file} does not parse: ${parsed.errors[0]?.message}`);
  const found: FoundRegex[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown> & { type?: string };
    const regex = n.regex as { pattern: string; flags: string } | undefined;
    if (n.type === 'Literal' && regex) found.push({ file, pattern: regex.pattern, flags: regex.flags });
    const callee = n.callee as { type?: string; name?: string } | undefined;
    if ((n.type === 'NewExpression' || n.type === 'CallExpression') && callee?.name === 'RegExp') {
      const [pattern, flags] = n.arguments as unknown[];
      const flagText = flags === undefined ? '' : stringLiteral(flags);
      found.push({
        file,
        pattern: flagText === undefined ? undefined : stringLiteral(pattern),
        flags: flagText ?? '',
      });
    }
    for (const [key, value] of Object.entries(n)) if (key !== 'parent') visit(value);
  };
  visit(parsed.program);
  return found;
}

/**
 * Regexes recheck reports (or cannot decide in time) that are safe where they run, each with the
 * bound that makes it so. Polynomial only: an exponential one is never safe to list.
 */
const safeInContext: { file: string; pattern: string | undefined; reason: string }[] = [
  {
    file: 'lambdas/domain/minimise.ts',
    pattern: '\\bVersion\\/(\\d+)[^ ]* (?:Mobile\\/\\S+ )?Safari\\/',
    reason: 'minimiseUserAgent cuts the user agent to 1024 characters before any pattern sees it',
  },
  {
    file: 'lambdas/domain/minimise.ts',
    pattern: '^(.+?)(?: (\\d{1,6}))? \\((.+)\\)$',
    reason: 'minimiseUserAgent cuts the user agent to 1024 characters before any pattern sees it',
  },
];

const found = [...sourcesBelow('lambdas'), ...sourcesBelow('web/src')].flatMap(regexesIn);
const listed = (regex: FoundRegex) =>
  safeInContext.find((entry) => entry.file === regex.file && entry.pattern === regex.pattern);

describe('regular expressions (ReDoS)', () => {
  it('finds the regexes of lambdas/ and web/src/ (the scan works)', () => {
    expect(found.length).toBeGreaterThan(50);
    expect(found).toContainEqual(
      expect.objectContaining({ file: 'lambdas/contracts/business-email.ts', flags: '' }),
    );
  });

  it('lists no regex that is gone, and gives each listed one a reason', () => {
    for (const entry of safeInContext) {
      expect(found.some((regex) => regex.file === entry.file && regex.pattern === entry.pattern)).toBe(true);
      expect(entry.reason.length).toBeGreaterThan(20);
    }
  });

  it('has no regex recheck finds vulnerable, but those listed as safe in their context', async () => {
    const unique = new Map(found.map((regex) => [`${regex.file} /${regex.pattern}/${regex.flags}`, regex]));
    const problems: string[] = [];
    for (const [where, regex] of unique) {
      if (regex.pattern === undefined) {
        if (!listed(regex)) problems.push(`${where}: a RegExp built at run time; list it with its reason`);
        continue;
      }
      const result = await check(regex.pattern, regex.flags, { timeout: 10_000 });
      if (result.status === 'safe') continue;
      const exponential = result.status === 'vulnerable' && result.complexity.type === 'exponential';
      if (listed(regex) && !exponential) continue;
      const detail =
        result.status === 'vulnerable'
          ? `${result.complexity.type}, e.g. ${result.attack.pattern}`
          : `undecided (${result.error.kind})`;
      problems.push(`${where}: ${detail}`);
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
