import { type TableKey, tables } from '#lambdas/tables.ts';

// Configuration comes from the environment the stack (or the local gateway) sets, read once at
// module scope by the adapters. A missing value is a deployment bug: fail loudly.
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function tableName(key: TableKey): string {
  return requireEnv(tables[key].envVar);
}
