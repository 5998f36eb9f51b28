import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { requireEnv } from '#lambdas/config.ts';
import { type SecretKey, secretEnvVars } from '#lambdas/grants.ts';

// Secrets come from Secrets Manager (locally: the gateway's Secrets Manager endpoint), never from
// environment variables in clear. The environment only names the secret. Values are cached per
// container for five minutes, so a rotated secret is picked up without a deployment.

const ttlMs = 5 * 60 * 1000;
let client: SecretsManagerClient | undefined;
const cache = new Map<SecretKey, { value: Promise<string>; expires: number }>();

export function getSecret(key: SecretKey): Promise<string> {
  const cached = cache.get(key);
  if (cached && cached.expires > Date.now()) return cached.value;
  client ??= new SecretsManagerClient({});
  const value = client
    .send(new GetSecretValueCommand({ SecretId: requireEnv(secretEnvVars[key]) }))
    .then((answer) => {
      if (answer.SecretString === undefined) throw new Error(`Secret ${key} has no string value`);
      return answer.SecretString;
    });
  // A failed read must not be cached: the next call tries again.
  value.catch(() => cache.delete(key));
  cache.set(key, { value, expires: Date.now() + ttlMs });
  return value;
}

/** For tests: forget cached values. */
export function clearSecretCache(): void {
  cache.clear();
}
