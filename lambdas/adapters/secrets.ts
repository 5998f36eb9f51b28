import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { requireEnvNamed } from '#lambdas/config.ts';
import { type SecretKey, secretEnvVars } from '#lambdas/grants.ts';

// Secrets come from Secrets Manager (locally: the gateway's Secrets Manager endpoint), never from
// environment variables in clear. The environment only names the secret. Values are cached per
// container for five minutes, so a rotated secret is picked up without a deployment.

const ttlMs = 5 * 60 * 1000;
let client: SecretsManagerClient | undefined;

export interface SecretVersion {
  value: string;
  /** Secrets Manager's version id (the local gateway answers `local` for every version). */
  versionId: string | undefined;
}

const cache = new Map<SecretKey, { version: Promise<SecretVersion>; expires: number }>();

/**
 * The secret's current value and version, from the cache unless `fresh` (a caller that has just
 * seen the cached value refused asks Secrets Manager again, and the answer replaces the cache).
 */
export function getSecretVersion(key: SecretKey, options: { fresh?: boolean } = {}): Promise<SecretVersion> {
  const cached = cache.get(key);
  if (!options.fresh && cached && cached.expires > Date.now()) return cached.version;
  client ??= new SecretsManagerClient({});
  const version = client
    .send(new GetSecretValueCommand({ SecretId: requireEnvNamed(secretEnvVars[key]) }))
    .then((answer) => {
      if (answer.SecretString === undefined) throw new Error(`Secret ${key} has no string value`);
      return { value: answer.SecretString, versionId: answer.VersionId };
    });
  // A failed read must not be cached: the next call tries again.
  const entry = { version, expires: Date.now() + ttlMs };
  version.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  cache.set(key, entry);
  return version;
}

export async function getSecret(key: SecretKey): Promise<string> {
  return (await getSecretVersion(key)).value;
}

/** For tests: forget cached values. */
export function clearSecretCache(): void {
  cache.clear();
}
