import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// `npm run auth0:provision` as an operator runs it: an apply without the admin audit trail's table
// is refused before anything is read from or changed in the tenant (ADR 0078).

const run = (args: string[], env: Record<string, string>) =>
  promisify(execFile)('node_modules/.bin/tsx', ['scripts/auth0-provision.ts', ...args], {
    env: { ...process.env, ADMIN_AUDIT_TABLE: '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

// Nothing listens there: a run that tried to reach the tenant would fail with exit 1, not 2.
const credentials = {
  AUTH0_DOMAIN: '127.0.0.1:9',
  AUTH0_CLIENT_ID: 'prov',
  AUTH0_CLIENT_SECRET: 'prov-secret',
};

describe('npm run auth0:provision without ADMIN_AUDIT_TABLE', () => {
  it('refuses to apply (exit 2), naming the variable and where the table name is, before reaching Auth0', async () => {
    const { code, stderr, stdout } = await run(['--stage', 'dev'], credentials);
    expect(code).toBe(2);
    expect(stderr).toContain("Set ADMIN_AUDIT_TABLE to the admin audit trail's table");
    expect(stderr).toContain('the output AdminAuditTableName of the stack Platform-dev-Data');
    expect(stderr).toContain('Nothing was read or changed; --dry-run needs no table.');
    expect(stdout).toBe('');
    expect(`${stdout}${stderr}`).not.toContain('prov-secret');
  });

  it('lets a dry run go on without it (here it then fails to reach the tenant: exit 1)', async () => {
    const { code, stderr } = await run(['--stage', 'dev', '--dry-run'], credentials);
    expect(code).toBe(1);
    expect(stderr).not.toContain('ADMIN_AUDIT_TABLE');
  });
});
