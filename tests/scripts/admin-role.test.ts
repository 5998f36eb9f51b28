import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromStage, main, parseRoleArgs } from '#scripts/admin-role/run.ts';

// `npm run admin:role`'s command line and its configuration in AWS, without a stack.

const base = ['--user', 'auth0|abc', '--role', 'admin', '--reason', '  Joins the review team  '];

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  });
  return { code, stdout, stderr };
}

describe('the command line of npm run admin:role', () => {
  it('takes a stage or a stack file, the user, the role and a trimmed reason', () => {
    expect(parseRoleArgs(['--stage', 'prod', ...base])).toEqual({
      target: { stage: 'prod', cdkJson: 'cdk.json' },
      userId: 'auth0|abc',
      role: 'admin',
      reason: 'Joins the review team',
    });
    expect(parseRoleArgs(['--stack', '.local/stack.json', ...base])).toMatchObject({
      target: { stack: '.local/stack.json' },
    });
  });

  it.each([
    [[...base], 'Give either --stage NAME'],
    [['--stage', 'prod', '--stack', 'x.json', ...base], 'Give either --stage NAME'],
    [['--stage', 'prod', '--role', 'admin', '--reason', 'Because'], '--user is required'],
    [['--stage', 'prod', '--user', 'auth0|abc', '--reason', 'Because'], '--role must be user or admin.'],
    [['--stage', 'prod', '--user', 'auth0|abc', '--role', 'owner', '--reason', 'Because'], 'not "owner"'],
    [['--stage', 'prod', '--user', 'auth0|abc', '--role', 'admin'], '--reason is required'],
    [['--stage', 'prod', '--user', 'auth0|abc', '--role', 'admin', '--reason', '  ok  '], '3 to 1000'],
    [
      ['--stage', 'prod', '--user', 'auth0|abc', '--role', 'admin', '--reason', 'x'.repeat(1001)],
      '3 to 1000',
    ],
    [['--stage', 'prod', ...base, '--force'], "Unknown option '--force'"],
  ])('refuses %j with a usage error', async (argv, message) => {
    expect(parseRoleArgs(argv)).toEqual({ error: expect.stringContaining(message) });
    const { code, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run admin:role');
  });

  it('accepts a reason of exactly 3 and of exactly 1000 characters', () => {
    for (const reason of ['abc', 'y'.repeat(1000)]) {
      expect(
        parseRoleArgs(['--stage', 'prod', '--user', 'u', '--role', 'user', '--reason', reason]),
      ).toMatchObject({
        reason,
      });
    }
  });

  it('prints the usage for --help and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('ADMIN_AUDIT_TABLE');
    expect(stdout).toContain('AUTH0_KYC_SYNC_SECRET_ID');
  });
});

describe('npm run admin:role in AWS', () => {
  const noAws = {
    readSecret: async () => {
      throw new Error('no secret may be read');
    },
    operatorId: async () => {
      throw new Error('no STS call');
    },
  };

  it('refuses to start without ADMIN_AUDIT_TABLE, naming the data stack output, before any AWS call', async () => {
    const { code, stderr } = await run(['--stage', 'dev', ...base], { AUTH0_KYC_SYNC_SECRET_ID: 'sec' });
    expect(code).toBe(2);
    expect(stderr).toContain('Set ADMIN_AUDIT_TABLE');
    expect(stderr).toContain('AdminAuditTableName of the stack Platform-dev-Data');
    expect(stderr).toContain('Nothing was changed.');
    await expect(
      configFromStage({ stage: 'dev', cdkJson: 'cdk.json' }, { AUTH0_KYC_SYNC_SECRET_ID: 'sec' }, noAws),
    ).rejects.toThrow('Set ADMIN_AUDIT_TABLE');
  });

  it('refuses to start without the auth0KycSync secret id', async () => {
    const { code, stderr } = await run(['--stage', 'dev', ...base], { ADMIN_AUDIT_TABLE: 'trail' });
    expect(code).toBe(2);
    expect(stderr).toContain('Set AUTH0_KYC_SYNC_SECRET_ID');
  });

  it("uses the auth0KycSync application's credentials from its secret, the stage's region and tenant, and the caller's ARN", async () => {
    const asked: string[] = [];
    const config = await configFromStage(
      { stage: 'dev', cdkJson: 'cdk.json' },
      { ADMIN_AUDIT_TABLE: 'Platform-dev-Data-AdminAuditLog', AUTH0_KYC_SYNC_SECRET_ID: 'arn:secret:kyc' },
      {
        readSecret: async (id, region) => {
          asked.push(`${id} ${region}`);
          return JSON.stringify({ clientId: 'kyc-sync', clientSecret: 's3cret' });
        },
        operatorId: async () => 'arn:aws:sts::123456789012:assumed-role/Ops/jane',
      },
    );
    expect(asked).toEqual(['arn:secret:kyc eu-central-1']);
    expect(config).toEqual({
      dynamodb: { region: 'eu-central-1', table: 'Platform-dev-Data-AdminAuditLog' },
      auth0: { domain: expect.stringMatching(/auth0\.com$/), clientId: 'kyc-sync', clientSecret: 's3cret' },
      operatorId: 'arn:aws:sts::123456789012:assumed-role/Ops/jane',
    });
  });

  it('exits 2 for a stack file that does not exist', async () => {
    const { code, stderr } = await run(['--stack', '/nonexistent/stack.json', ...base]);
    expect(code).toBe(2);
    expect(stderr).toContain('No stack file /nonexistent/stack.json');
  });

  it('exits 2 for an unknown stage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admin-role-'));
    await writeFile(join(dir, 'cdk.json'), '{}');
    const { code, stderr } = await run(['--stage', 'nope', '--cdk-json', join(dir, 'cdk.json'), ...base]);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown stage "nope"');
  });
});
