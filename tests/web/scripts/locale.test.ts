import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { germanLiterals } from '#contracts/messages-de.ts';
import { registrationMessages } from '#contracts/registration.ts';
import { germanContractMessages, localizedContentFile } from '../../../web/scripts/locale.ts';

// The German build's two swaps (ADR 0089): content modules for their twins, and the contracts'
// field messages for their German, so the German forms say what the German API answers.

const contractsDir = fileURLToPath(new URL('../../../lambdas/contracts/', import.meta.url));
const contentDir = fileURLToPath(new URL('../../../web/src/content/', import.meta.url));

describe('the German build', () => {
  it('swaps a content module for its twin, and leaves language-neutral modules and the twins alone', () => {
    expect(localizedContentFile(path.join(contentDir, 'site.ts'), 'de')).toBe(
      path.join(contentDir, 'de', 'site.ts'),
    );
    expect(localizedContentFile(path.join(contentDir, 'company.ts'), 'de')).toBeUndefined();
    expect(localizedContentFile(path.join(contentDir, 'de', 'site.ts'), 'de')).toBeUndefined();
    expect(localizedContentFile(path.join(contentDir, 'site.ts'), 'en')).toBeUndefined();
    expect(localizedContentFile(path.join(contractsDir, 'registration.ts'), 'de')).toBeUndefined();
  });

  it('writes every field message of every contract in German', () => {
    const left: string[] = [];
    const messages = Object.keys(germanLiterals).filter(
      (english) => english.length >= 12 && english.includes(' '),
    );
    for (const file of readdirSync(contractsDir).filter((name) => name.endsWith('.ts'))) {
      if (file === 'messages-de.ts' || file === 'problem-messages.ts') continue;
      const { code } = germanContractMessages(
        readFileSync(path.join(contractsDir, file), 'utf8'),
        germanLiterals,
      );
      for (const english of messages) {
        for (const quote of ["'", '"', '`'])
          if (code.includes(`${quote}${english}${quote}`)) left.push(`${file}: ${english}`);
      }
    }
    expect(left).toEqual([]);
  });

  it('finds every field message where its contract writes it: as one literal the swap can replace', async () => {
    const missed: string[] = [];
    const files = readdirSync(contractsDir).filter(
      (name) => name.endsWith('.ts') && name !== 'messages-de.ts' && name !== 'problem-messages.ts',
    );
    // A message may be written in one contract and spread into another's messages.
    const source = files.map((file) => readFileSync(path.join(contractsDir, file), 'utf8')).join('\n');
    for (const file of files) {
      const module = (await import(path.join(contractsDir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!name.endsWith('Messages') || typeof value !== 'object' || value === null) continue;
        for (const message of Object.values(value)) {
          if (typeof message !== 'string' || message.length < 12 || !message.includes(' ')) continue;
          const written = ["'", '"', '`'].some((quote) => source.includes(`${quote}${message}${quote}`));
          if (!written || !(message in germanLiterals)) missed.push(`${file} ${name}: ${message}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('replaces the literal only, whatever quotes it has, and no enum-like word', () => {
    const pairs = {
      [registrationMessages.responsibleName]: germanLiterals[registrationMessages.responsibleName],
      Conflict: 'Konflikt',
    };
    const { code, replaced } = germanContractMessages(
      `const a = { name: '${registrationMessages.responsibleName}', b: "${registrationMessages.responsibleName}", kind: 'Conflict' };`,
      pairs,
    );
    expect(replaced).toEqual([registrationMessages.responsibleName, registrationMessages.responsibleName]);
    const german = JSON.stringify(germanLiterals[registrationMessages.responsibleName]);
    expect(code).toBe(`const a = { name: ${german}, b: ${german}, kind: 'Conflict' };`);
  });
});
