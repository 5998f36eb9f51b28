import { type EnvKey, functionEnv } from '#lambdas/environment.ts';
import { type TableKey, tables } from '#lambdas/tables.ts';

// Configuration comes from the environment the stack (or the local gateway) sets, read once at
// module scope by the adapters. The names are declared once (lambdas/environment.ts, the tables'
// and the secrets' rows). A missing value is a deployment bug: fail loudly.

/** A variable's value by its name; throws when it is missing or empty. */
export function requireEnvNamed(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function requireEnv(key: EnvKey): string {
  return requireEnvNamed(functionEnv[key]);
}

/** A variable that may be unset (or empty): undefined then. */
export function optionalEnv(key: EnvKey): string | undefined {
  return process.env[functionEnv[key]] || undefined;
}

export function tableName(key: TableKey): string {
  return requireEnvNamed(tables[key].envVar);
}
