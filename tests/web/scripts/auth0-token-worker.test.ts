import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { WebConfig } from '#contracts/web-config.ts';
import { auth0Options } from '#web/lib/auth/auth0.tsx';
import {
  auth0TokenWorkerMarker,
  removedWorkerSource,
  stripAuth0TokenWorker,
} from '../../../web/scripts/auth0-token-worker.ts';

const require = createRequire(import.meta.url);
const sdkBundle = () =>
  readFile(
    require.resolve('@auth0/auth0-react').replace(/auth0-react\.cjs\.js$/, 'auth0-react.esm.js'),
    'utf8',
  );

const config = {
  auth0: { domain: 'tenant.example', clientId: 'client', audience: 'https://api.example' },
} as WebConfig;

describe('the build without auth0-spa-js token worker', () => {
  it('is safe only because sessions keep their tokens in local storage (the SDK starts the worker for the memory cache)', () => {
    expect(auth0Options(config, 'https://platform.example').cacheLocation).toBe('localstorage');
  });

  it('replaces the SDK inline worker with one that says why it cannot run, and nothing else', async () => {
    const original = await sdkBundle();
    const stripped = stripAuth0TokenWorker(original);
    const literals = (code: string) =>
      code.match(new RegExp(`"${auth0TokenWorkerMarker}[A-Za-z0-9+/=]+"`, 'g')) ?? [];
    const [before] = literals(original);
    const [after] = literals(stripped);
    expect(before?.length).toBeGreaterThan(4000);
    expect(Buffer.from(after?.slice(1, -1) ?? '', 'base64').toString('utf8')).toBe(removedWorkerSource);
    expect(stripped.length).toBe(original.length - (before?.length ?? 0) + (after?.length ?? 0));
    expect(stripped.replace(after ?? '', '')).toBe(original.replace(before ?? '', ''));
  });

  it('fails the build when the SDK no longer inlines the worker as it did, instead of guessing', () => {
    expect(() => stripAuth0TokenWorker('export const nothing = 1;')).toThrow(/found it 0 times/);
    const worker = `"${auth0TokenWorkerMarker}AAAA"`;
    expect(() => stripAuth0TokenWorker(`a=${worker};b=${worker}`)).toThrow(/found it 2 times/);
  });
});
