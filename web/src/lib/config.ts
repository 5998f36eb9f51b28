// Runtime configuration: `/config.json`, written per stage at deploy time, loaded once per page.

import * as z from 'zod/mini';
import { type WebConfig, webConfig } from '#contracts/web-config.ts';
import { getSiteJson } from './api-client.ts';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates a config object; the error names every bad key, not just the first. */
export function parseWebConfig(raw: unknown): WebConfig {
  const result = webConfig.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `${at ? `${at}.` : ''}${key}: unknown key`);
    }
    return [`${at || '(root)'}: ${issue.message}`];
  });
  throw new ConfigError(`Invalid /config.json: ${problems.join('; ')}`);
}

let pending: Promise<WebConfig> | undefined;

/** Loads and validates `/config.json` once; a failed load is retried on the next call. */
export function loadConfig(): Promise<WebConfig> {
  pending ??= getSiteJson('/config.json', z.unknown())
    .then(parseWebConfig)
    .catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
  return pending;
}
