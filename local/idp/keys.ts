import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

export interface PrivateJwks {
  keys: JWK[];
}

/** Loads the RSA signing key set from `dataDir/jwks.json`, generating (and persisting) it the first time. */
export async function loadOrCreateSigningKeys(dataDir: string): Promise<PrivateJwks> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'jwks.json');
  if (existsSync(file)) {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as PrivateJwks;
    if (Array.isArray(parsed.keys) && parsed.keys.length > 0) return parsed;
  }
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const jwks: PrivateJwks = { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] };
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(jwks, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
  return jwks;
}

/** The public half of a private JWK set (what `/.well-known/jwks.json` serves). */
export function publicJwks(jwks: PrivateJwks): { keys: JWK[] } {
  return {
    keys: jwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
}
