// Every text exists in English and in German (issue 28, ADR 0089). Each module of web/src/content/
// has a twin under web/src/content/de/ with the same exports, keys, lists and functions; the German
// build swaps the twins in (web/scripts/locale.ts). `satisfies Localized<...>` in each twin makes a
// missing key a type error; this test also catches a missing twin, a missing or extra export, a
// list of another length, and English left standing in the German files.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const contentDir = fileURLToPath(new URL('../../../web/src/content/', import.meta.url));

/** Modules with no words to translate: facts, shapes and helpers both languages share. */
const languageNeutral = new Set([
  'company.ts',
  'cookie-policy-revision.ts',
  'localized.ts',
  'pages/types.ts',
  'pages/legal/facts.ts',
  // Writes the retention list in either language (its functions take the language).
  'pages/legal/retention.ts',
]);

/** Sentences German shares with English word for word (names, not untranslated copy). */
const sameInBothLanguages = new Set<string>([]);

function contentModules(dir = contentDir, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${prefix}${entry.name}`;
    if (entry.isDirectory())
      return relative === 'de' ? [] : contentModules(path.join(dir, entry.name), `${relative}/`);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const load = (relative: string) =>
  import(pathToFileURL(path.join(contentDir, relative)).href) as Promise<Record<string, unknown>>;

/** Where two values differ in shape, as `at` paths; English sentences found in German go to `same`. */
function compare(en: unknown, de: unknown, at: string, problems: string[], same: string[]): void {
  if (typeof en === 'string') {
    if (typeof de !== 'string') problems.push(`${at}: a string in English, ${typeof de} in German`);
    else if (de.trim() === '' && en.trim() !== '') problems.push(`${at}: empty in German`);
    else if (de === en && en.trim().split(/\s+/).length >= 3 && !sameInBothLanguages.has(en))
      same.push(`${at}: "${en}"`);
    return;
  }
  if (typeof en === 'function') {
    if (typeof de !== 'function') problems.push(`${at}: a function in English, ${typeof de} in German`);
    return;
  }
  if (Array.isArray(en)) {
    if (!Array.isArray(de)) return void problems.push(`${at}: a list in English, not in German`);
    if (de.length !== en.length)
      return void problems.push(`${at}: ${en.length} items in English, ${de.length} in German`);
    for (const [index, item] of en.entries()) compare(item, de[index], `${at}[${index}]`, problems, same);
    return;
  }
  if (en !== null && typeof en === 'object') {
    if (de === null || typeof de !== 'object' || Array.isArray(de))
      return void problems.push(`${at}: an object in English, not in German`);
    const enKeys = Object.keys(en);
    const deKeys = Object.keys(de);
    for (const key of enKeys) if (!(key in de)) problems.push(`${at}.${key}: missing in German`);
    for (const key of deKeys) if (!(key in en)) problems.push(`${at}.${key}: only in German`);
    for (const key of enKeys) {
      if (key in de)
        compare(
          (en as Record<string, unknown>)[key],
          (de as Record<string, unknown>)[key],
          `${at}.${key}`,
          problems,
          same,
        );
    }
    return;
  }
  if (en !== de) problems.push(`${at}: ${String(en)} in English, ${String(de)} in German`);
}

const modules = contentModules().sort();

describe('translations', () => {
  it('finds the content modules', () => {
    expect(modules).toContain('site.ts');
    expect(modules).toContain('pages/legal/privacy-policy.ts');
  });

  it.each(modules.filter((relative) => !languageNeutral.has(relative)))(
    '%s has a German twin with the same shape',
    async (relative) => {
      const en = await load(relative);
      const de = await load(`de/${relative}`).catch((error: unknown) => {
        throw new Error(
          `web/src/content/de/${relative} is missing: every text needs its German version (${String(error)})`,
        );
      });
      const problems: string[] = [];
      const same: string[] = [];
      expect(Object.keys(de).sort(), 'the German module exports what the English one does').toEqual(
        Object.keys(en).sort(),
      );
      for (const name of Object.keys(en)) compare(en[name], de[name], name, problems, same);
      expect(problems, 'the German text has the English shape').toEqual([]);
      expect(same, 'English sentences left in the German text').toEqual([]);
    },
  );

  it('has no German module without an English one', () => {
    const german = contentModules(path.join(contentDir, 'de'));
    expect(german.filter((relative) => !modules.includes(relative))).toEqual([]);
  });

  it('fails on a missing key, an extra key, a shorter list and an untranslated sentence', () => {
    const problems: string[] = [];
    const same: string[] = [];
    compare(
      { a: 'Log In', b: ['One', 'Two'], c: 'Please try again later' },
      { b: ['Eins'], c: 'Please try again later', d: 'Extra' },
      'x',
      problems,
      same,
    );
    expect(problems).toEqual([
      'x.a: missing in German',
      'x.d: only in German',
      'x.b: 2 items in English, 1 in German',
    ]);
    expect(same).toEqual(['x.c: "Please try again later"']);
  });
});
