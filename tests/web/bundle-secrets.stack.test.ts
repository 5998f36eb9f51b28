import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { localIdentity } from '#local/stack.ts';

// The production web bundle (web/dist, built by the stack setup as `npm run build` builds it)
// must hold no backend credential: no machine-to-machine client id or secret, no Persona webhook
// secret or API key. The exact values are the running local stack's (random per state dir) and
// the fixed local client ids; the patterns catch a credential of any stage pasted into web code.

const stack = inject('stack');
const dist = path.resolve(import.meta.dirname, '../../web/dist');

const values: [string, string][] = [
  ['the M2M client id', localIdentity.m2mClientId],
  ['the M2M client secret', stack.idp.m2mClientSecret],
  ['the test client id', localIdentity.testClientId],
  ['the test client secret', stack.idp.testClientSecret],
  ['the Persona webhook secret', stack.persona.webhookSecret],
  ['the Persona API key', stack.persona.apiKey],
];

const patterns: [string, RegExp][] = [
  ['a Persona webhook secret', /wbhsec_[A-Za-z0-9]/],
  ['a Persona API key', /persona_(?:sandbox|production)_[A-Za-z0-9]/],
  // The Auth0 SDK names the parameter; a literal value assigned to it is a credential.
  ['a client secret literal', /client_?secret["'`]?\s*[:=]\s*["'`][^"'`\s]{8,}/i],
  ['an AWS access key id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
];

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? files(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

it('emits no backend credential in any file of the production web build', async () => {
  const emitted = await files(dist);
  expect(emitted.some((file) => file.endsWith('.js'))).toBe(true);
  const found: string[] = [];
  for (const file of emitted) {
    // latin1 keeps every byte, so a binary file is scanned as well.
    const text = (await readFile(file)).toString('latin1');
    const name = path.relative(dist, file);
    for (const [what, value] of values) if (text.includes(value)) found.push(`${name}: ${what}`);
    for (const [what, pattern] of patterns) if (pattern.test(text)) found.push(`${name}: ${what}`);
  }
  expect(found).toEqual([]);
});
