import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  ACMClient,
  ResourceNotFoundException as CertificateNotFound,
  DescribeCertificateCommand,
} from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DescribeStacksCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetSecretValueCommand,
  ListSecretsCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  GetAccountCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { exampleStages, parseStageConfig, type StageConfig } from '#infra/stage-config.ts';
import { auth0M2mKeys } from '#lambdas/grants.ts';
import {
  awsPreflightPorts,
  certificatePort,
  lambdaAccountPort,
  secretsPort,
  sesPort,
  stacksPort,
} from '#scripts/preflight/aws.ts';
import { minimumBootstrapVersion } from '#scripts/preflight/bootstrap.ts';
import { runPreflight } from '#scripts/preflight/checks.ts';
import { exitStatus, type Finding, formatFindings } from '#scripts/preflight/findings.ts';
import { type LambdaAccountPort, stageReservedConcurrency } from '#scripts/preflight/lambda-concurrency.ts';
import type { CertificatePort, StacksPort } from '#scripts/preflight/site.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

// npm run preflight: every answer comes from the real SDK clients (SES, Secrets Manager, Lambda,
// ACM) with aws-sdk-client-mock standing in for the account.

const ses = mockClient(SESv2Client);
const secretsManager = mockClient(SecretsManagerClient);
const lambdaApi = mockClient(LambdaClient);
const acm = mockClient(ACMClient);
const cloudFormation = mockClient(CloudFormationClient);
afterEach(() => {
  cloudFormation.reset();
  ses.reset();
  secretsManager.reset();
  lambdaApi.reset();
  acm.reset();
});

const stage = (overrides: Record<string, unknown> = {}): StageConfig =>
  parseStageConfig({ ...exampleStages.dev, stage: 'prod', demo: false, ...overrides });
const dataStack = 'Platform-prod-Data';
const secretIds = {
  auth0Registration: 'SecretsAuth0RegistrationB06F1C56',
  auth0ReadUsers: 'SecretsAuth0ReadUsersF0A82144',
  auth0VerificationEmail: 'SecretsAuth0VerificationEmail5C07A396',
  auth0KycSync: 'SecretsAuth0KycSync3ADBD540',
  auth0Erasure: 'SecretsAuth0Erasure3418202B',
  auth0OrganizationTeam: 'SecretsAuth0OrganizationTeamBA755A6D',
  personaApiKey: 'SecretsPersonaApiKeyB1A325FE',
  personaWebhookSecret: 'SecretsPersonaWebhookSecret928B16FD',
  originVerify: 'SecretsOriginVerify59304C5E',
};
const arnOf = (logicalId: string) =>
  `arn:aws:secretsmanager:eu-central-1:111111111111:secret:${logicalId}-AbCdEf`;
const goodValues: Record<keyof typeof secretIds, string> = {
  ...(Object.fromEntries(
    auth0M2mKeys.map((key) => [key, JSON.stringify({ clientId: `id-${key}`, clientSecret: 'secret' })]),
  ) as Record<(typeof auth0M2mKeys)[number], string>),
  personaApiKey: 'persona_sandbox_0123456789',
  personaWebhookSecret: 'wbhsec_old wbhsec_new',
  originVerify: JSON.stringify({ current: 'x'.repeat(48), previous: '' }),
};

/** The account as SES and Secrets Manager answer for it. */
function account(options: {
  production?: boolean;
  identities?: Record<string, { verified: boolean; stackName?: string }>;
  secrets?: Partial<Record<keyof typeof secretIds, string | null>>;
}) {
  ses
    .on(GetAccountCommand)
    .resolves({ ProductionAccessEnabled: options.production ?? true, SendingEnabled: true });
  ses.on(GetEmailIdentityCommand).callsFake(({ EmailIdentity }: { EmailIdentity: string }) => {
    const identity = options.identities?.[EmailIdentity];
    if (!identity)
      throw new NotFoundException({
        message: `Email identity ${EmailIdentity} does not exist.`,
        $metadata: {},
      });
    return {
      VerifiedForSendingStatus: identity.verified,
      Tags: identity.stackName ? [{ Key: 'aws:cloudformation:stack-name', Value: identity.stackName }] : [],
    };
  });
  const entries = Object.entries(options.secrets ?? {}) as [keyof typeof secretIds, string | null][];
  // The data stack's own resources: its secrets by physical id, beside a table preflight ignores.
  cloudFormation.on(ListStackResourcesCommand, { StackName: dataStack }).resolves({
    StackResourceSummaries: [
      {
        LogicalResourceId: 'DataTablesConsentLedger0123ABCD',
        PhysicalResourceId: 'Platform-prod-Data-ConsentLedger',
        ResourceType: 'AWS::DynamoDB::GlobalTable',
        ResourceStatus: 'CREATE_COMPLETE',
        LastUpdatedTimestamp: new Date(),
      },
      ...entries.map(([key]) => ({
        LogicalResourceId: secretIds[key],
        PhysicalResourceId: arnOf(secretIds[key]),
        ResourceType: 'AWS::SecretsManager::Secret',
        ResourceStatus: 'CREATE_COMPLETE' as const,
        LastUpdatedTimestamp: new Date(),
      })),
    ],
  });
  // What a tag search would also find: a failed first create's leftover, with the same stack-name
  // and logical-id tags as the real secret.
  secretsManager.on(ListSecretsCommand).resolves({
    SecretList: [
      {
        ARN: arnOf('SecretsPersonaApiKeyLEFTOVER'),
        Tags: [
          { Key: 'aws:cloudformation:stack-name', Value: dataStack },
          { Key: 'aws:cloudformation:logical-id', Value: secretIds.personaApiKey },
        ],
      },
    ],
  });
  secretsManager.on(GetSecretValueCommand).callsFake(({ SecretId }: { SecretId: string }) => {
    if (SecretId === arnOf('SecretsPersonaApiKeyLEFTOVER'))
      return { SecretString: 'GeneratedPlaceholder0123456789ab' };
    const entry = entries.find(([key]) => arnOf(secretIds[key]) === SecretId);
    if (!entry || entry[1] === null)
      throw new ResourceNotFoundException({ message: 'no value', $metadata: {} });
    return { SecretString: entry[1] };
  });
}

const lambda = (limit: number, unreserved = limit): LambdaAccountPort => {
  lambdaApi
    .on(GetAccountSettingsCommand)
    .resolves({ AccountLimit: { ConcurrentExecutions: limit, UnreservedConcurrentExecutions: unreserved } });
  return lambdaAccountPort(new LambdaClient({ region: 'eu-central-1' }));
};
const certificates = (answer?: { status: string; domainNames: string[] }): CertificatePort => {
  if (answer)
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: { Status: answer.status as 'ISSUED', SubjectAlternativeNames: answer.domainNames },
    });
  else
    acm
      .on(DescribeCertificateCommand)
      .rejects(new CertificateNotFound({ message: 'no such', $metadata: {} }));
  return certificatePort(new ACMClient({ region: 'us-east-1' }));
};

const notExists = (stackName: string) =>
  Object.assign(new Error(`Stack with id ${stackName} does not exist`), { name: 'ValidationError' });
/** The site stack as CloudFormation describes it: deployed at `host`, or (undefined) not yet. */
const siteStack = (host?: string): StacksPort => {
  const site = cloudFormation.on(DescribeStacksCommand, { StackName: 'Platform-prod-Site' });
  if (host)
    site.resolves({
      Stacks: [
        {
          StackName: 'Platform-prod-Site',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: new Date(),
          Outputs: [{ OutputKey: 'DistributionDomainName', OutputValue: host }],
        },
      ],
    });
  else site.rejects(notExists('Platform-prod-Site'));
  return stacksPort(new CloudFormationClient({ region: 'eu-central-1' }));
};
/**
 * The `CDKToolkit` stack `cdk bootstrap` leaves in each region, by its `BootstrapVersion` output:
 * a region left out is not bootstrapped. The answer depends on the region of the client asked.
 */
type Toolkits = Record<string, string | undefined>;
const bothBootstrapped: Toolkits = { 'eu-central-1': '30', 'us-east-1': '30' };
const toolkits = (versions: Toolkits) => {
  cloudFormation
    .on(DescribeStacksCommand, { StackName: 'CDKToolkit' })
    .callsFake(async (_input, getClient) => {
      const version = versions[await getClient().config.region()];
      if (version === undefined) throw notExists('CDKToolkit');
      return {
        Stacks: [
          {
            StackName: 'CDKToolkit',
            StackStatus: 'UPDATE_COMPLETE',
            CreationTime: new Date(),
            Outputs: version ? [{ OutputKey: 'BootstrapVersion', OutputValue: version }] : [],
          },
        ],
      };
    });
};
/** The example stage's siteUrl (a stage after its second pass). */
const exampleHost = 'd111111abcdef8.cloudfront.net';

async function preflight(
  config: StageConfig,
  ports: {
    lambda?: LambdaAccountPort;
    certificates?: CertificatePort;
    stacks?: StacksPort;
    toolkits?: Toolkits;
  } = {},
) {
  toolkits(ports.toolkits ?? bothBootstrapped);
  const findings = await runPreflight(config, {
    lambda: ports.lambda ?? lambda(1000),
    certificates: ports.certificates ?? certificates(),
    stacks: ports.stacks ?? siteStack(exampleHost),
    edgeStacks: stacksPort(new CloudFormationClient({ region: 'us-east-1' })),
    ses: sesPort(new SESv2Client({ region: config.region })),
    secrets: secretsPort(
      new SecretsManagerClient({ region: config.region }),
      new CloudFormationClient({ region: config.region }),
    ),
  });
  const missing = (check: string) =>
    findings.filter((f) => f.status === 'missing' && f.check === check).map((f) => f.detail);
  return {
    findings,
    missing,
    report: formatFindings(config, findings),
    failed: findings.some((f) => f.status === 'missing'),
  };
}
/** The command itself, as an operator runs it. */
const run = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)('node_modules/.bin/tsx', ['scripts/preflight.ts', ...args], {
    env: { ...process.env, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
const statuses = (findings: Finding[]) => findings.map((f) => `${f.status} ${f.check}`);

describe('npm run preflight', () => {
  it('passes a ready account before the first deploy, and says what comes after it', async () => {
    account({ production: true });
    const { findings, failed, report } = await preflight(stage({ siteUrl: undefined }), {
      stacks: siteStack(),
    });
    expect(failed).toBe(false);
    expect(statuses(findings)).toEqual([
      'ok CDK bootstrap',
      'ok CDK bootstrap',
      'ok Lambda concurrency',
      'later SES identity',
      'ok SES sandbox',
      'note Site domain',
      'later Site address',
      'later Secrets',
    ]);
    expect(report).toContain('Ready for the first deploy');
    // Without a custom domain the site's address is the CloudFront host, known after the deploy.
    expect(report).toMatch(/no domainName: .*CloudFront host.*Platform-prod-Site\.DistributionDomainName/);
  });

  it("refuses an account whose unreserved concurrency cannot take the stage's reservations, and says how to raise it", async () => {
    account({ production: true });
    const { total } = stageReservedConcurrency();
    expect(total).toBeGreaterThan(0);
    // A new account: 10 concurrent executions, nothing can be reserved.
    const newAccount = await preflight(stage(), { lambda: lambda(10) });
    expect(newAccount.failed).toBe(true);
    expect(newAccount.missing('Lambda concurrency')[0]).toMatch(
      /allows 10 concurrent executions.*10 unreserved/,
    );
    expect(newAccount.report).toContain(
      'aws service-quotas request-service-quota-increase --region eu-central-1 --service-code lambda --quota-code L-B99A9384',
    );
    // The boundary: exactly 100 must stay unreserved after the stage's reservation.
    expect((await preflight(stage(), { lambda: lambda(1000, 100 + total) })).failed).toBe(false);
    expect((await preflight(stage(), { lambda: lambda(1000, 99 + total) })).failed).toBe(true);
    // An account whose settings cannot be read is not vouched for.
    const unreadable = await preflight(stage(), {
      lambda: { concurrency: () => Promise.reject(new Error('AccessDenied')) },
    });
    expect(unreadable.missing('Lambda concurrency')).toEqual([expect.stringContaining('AccessDenied')]);
  });

  it('counts the reservations from the same definitions the backend stack reserves them from', () => {
    const { backend } = synthPlatform();
    const reservedInTemplate = Object.values(backend.findResources('AWS::Lambda::Function')).reduce(
      (sum, fn) => sum + (fn.Properties.ReservedConcurrentExecutions ?? 0),
      0,
    );
    expect(stageReservedConcurrency().total).toBe(reservedInTemplate);
  });

  it('lets the deploy go ahead while SES production access is pending: a warning, exit status 0', async () => {
    const domain = { 'platform.example': { verified: true, stackName: dataStack } };
    account({ production: false, identities: domain });
    const bare = await preflight(stage());
    expect(bare.missing('SES sandbox')).toEqual([]);
    expect(bare.findings.filter((f) => f.check === 'SES sandbox')).toEqual([
      expect.objectContaining({
        status: 'warning',
        detail: expect.stringMatching(/in the SES sandbox .* no email\.sandboxRecipients/),
        fix: expect.stringContaining('The deploy can go ahead while production access is pending'),
      }),
    ]);
    expect(bare.failed).toBe(false);
    expect(exitStatus(bare.findings)).toBe(0);
    expect(bare.report).toMatch(/WARNING +SES sandbox: /);
    expect(bare.report).toContain(
      `aws sesv2 put-account-details --region eu-central-1 --production-access-enabled --mail-type TRANSACTIONAL --website-url https://${exampleHost} `,
    );
    expect(bare.report).toContain('1 warning(s): the deploy can go ahead');

    // A new account before its first deploy: nothing missing, the sandbox only warned about.
    ses.reset();
    account({ production: false });
    const first = await preflight(stage({ siteUrl: undefined }), { stacks: siteStack() });
    expect(first.failed).toBe(false);
    expect(statuses(first.findings)).toContain('warning SES sandbox');
    expect(first.report).toContain('Ready for the first deploy');
  });

  it('names the site URL to give SES only once it is known, never "undefined"', async () => {
    account({ production: false });
    const first = await preflight(stage({ siteUrl: undefined }), { stacks: siteStack() });
    expect(first.report).not.toContain('undefined');
    expect(first.report).toContain(
      `Request it once the site's URL is known (after the first deploy the "Site address" check names its host): aws sesv2 put-account-details --region eu-central-1 --production-access-enabled --mail-type TRANSACTIONAL --website-url https://<that host> `,
    );
    // With sandbox recipients the same request is a note.
    const email = { ...exampleStages.dev?.email, sandboxRecipients: ['platform.example'] };
    const noted = await preflight(stage({ siteUrl: undefined, email }), { stacks: siteStack() });
    expect(noted.report).not.toContain('undefined');
    expect(noted.report).toContain("request production access once the site's URL is known");
  });

  it('refuses unverified sandbox recipients and an unverified operations address', async () => {
    const domain = { 'platform.example': { verified: true, stackName: dataStack } };
    account({ production: false, identities: { ...domain, 'tester@acme-test.de': { verified: false } } });
    const email = { ...exampleStages.dev?.email, operationsAddress: 'ops@acme-ops.de' };
    const unverified = await preflight(
      stage({ email: { ...email, sandboxRecipients: ['tester@acme-test.de', 'qa@acme-test.de'] } }),
    );
    expect(unverified.missing('SES sandbox')).toEqual([
      'sandbox recipient tester@acme-test.de is not verified yet',
      'sandbox recipient qa@acme-test.de is not an SES identity',
      expect.stringMatching(
        /^the operations address ops@acme-ops\.de is neither on platform\.example nor in email\.sandboxRecipients/,
      ),
    ]);

    ses.reset();
    account({ production: false, identities: { ...domain, 'acme-ops.de': { verified: true } } });
    const ready = await preflight(stage({ email: { ...email, sandboxRecipients: ['acme-ops.de'] } }));
    expect(ready.missing('SES sandbox')).toEqual([]);
    expect(statuses(ready.findings)).toContain('note SES sandbox');
  });

  it("refuses an email domain another stage's data stack already holds (SES identity collision)", async () => {
    account({ identities: { 'platform.example': { verified: true, stackName: 'Platform-dev-Data' } } });
    const { missing, report } = await preflight(stage());
    expect(missing('SES identity')).toEqual([
      'platform.example is already an SES identity in eu-central-1 (created by Platform-dev-Data): the data stack creates its own and would fail',
    ]);
    expect(report).toContain('Give this stage another email.domain');
  });

  it('after the first deploy: wants the identity verified and every secret filled with a value that parses', async () => {
    account({
      identities: { 'platform.example': { verified: false, stackName: dataStack } },
      secrets: {
        ...goodValues,
        auth0KycSync: 'GeneratedPlaceholder0123456789ab',
        personaWebhookSecret: 'whsec_wrong',
        originVerify: null,
      },
    });
    const { missing, report } = await preflight(stage());
    expect(missing('SES identity')).toEqual(['platform.example is not verified for sending yet']);
    expect(missing('Secrets')).toEqual([
      'SecretsAuth0KycSync is not JSON {"clientId","clientSecret"} (still the generated placeholder?)',
      'SecretsPersonaWebhookSecret is not a Persona webhook secret (wbhsec_..., two separated by a space while rotating)',
      'SecretsOriginVerify has no value',
    ]);
    expect(report).toContain(
      `aws secretsmanager put-secret-value --region eu-central-1 --secret-id ${arnOf(secretIds.auth0KycSync)}`,
    );

    // A secret the operator may not read is reported, and the other checks still run.
    secretsManager.on(GetSecretValueCommand, { SecretId: arnOf(secretIds.personaApiKey) }).rejects(
      Object.assign(new Error('not authorized to perform GetSecretValue'), {
        name: 'AccessDeniedException',
      }),
    );
    expect((await preflight(stage())).missing('Secrets')).toContain(
      'SecretsPersonaApiKey could not be read (AccessDeniedException: not authorized to perform GetSecretValue)',
    );

    ses.reset();
    secretsManager.reset();
    account({
      identities: { 'platform.example': { verified: true, stackName: dataStack } },
      secrets: goodValues,
    });
    const done = await preflight(stage());
    expect(done.failed).toBe(false);
    expect(done.report).toContain('Nothing missing.');
  });

  it("checks the data stack's own secrets (its resource list), never a failed create's leftover with the same tags", async () => {
    account({
      identities: { 'platform.example': { verified: true, stackName: dataStack } },
      secrets: goodValues,
    });
    const { missing, report } = await preflight(stage());
    expect(missing('Secrets')).toEqual([]);
    const read = secretsManager
      .commandCalls(GetSecretValueCommand)
      .map((call) => call.args[0].input.SecretId);
    expect(read).toContain(arnOf(secretIds.personaApiKey));
    expect(read).not.toContain(arnOf('SecretsPersonaApiKeyLEFTOVER'));
    expect(report).not.toContain('LEFTOVER');
    expect(cloudFormation.commandCalls(ListStackResourcesCommand)[0]?.args[0].input).toEqual({
      StackName: dataStack,
    });
  });

  it("refuses a region that is not CDK-bootstrapped, the stage's or us-east-1, naming the bootstrap command", async () => {
    account({});
    const check = async (config: StageConfig, versions: Toolkits) =>
      (await preflight(config, { toolkits: versions })).findings.filter((f) => f.check === 'CDK bootstrap');

    // Neither region: two findings, each with the exact command (the stage's account when it names one).
    const account111 = stage({ account: '111111111111' });
    expect(await check(account111, {})).toEqual([
      expect.objectContaining({
        status: 'missing',
        detail: 'eu-central-1 is not bootstrapped (no CDKToolkit stack): the stage deploys there',
        fix: 'npx cdk bootstrap aws://111111111111/eu-central-1',
      }),
      expect.objectContaining({
        status: 'missing',
        detail:
          'us-east-1 is not bootstrapped (no CDKToolkit stack): the edge stack Platform-prod-Edge (the web ACL) deploys there',
        fix: 'npx cdk bootstrap aws://111111111111/us-east-1',
      }),
    ]);
    // Only us-east-1 missing (the usual case); without an account the command asks the CLI for it.
    const edgeOnly = await preflight(stage(), { toolkits: { 'eu-central-1': '30' } });
    expect(edgeOnly.failed).toBe(true);
    expect(edgeOnly.missing('CDK bootstrap')).toEqual([
      expect.stringMatching(/^us-east-1 is not bootstrapped/),
    ]);
    expect(edgeOnly.report).toContain(
      'npx cdk bootstrap aws://$(aws sts get-caller-identity --query Account --output text)/us-east-1',
    );
    // Too old a bootstrap, or a toolkit stack without its version (a failed bootstrap).
    expect(
      (await check(stage(), { 'eu-central-1': '5', 'us-east-1': '' })).map((f) => [f.status, f.detail]),
    ).toEqual([
      ['missing', 'CDKToolkit in eu-central-1 is bootstrap version 5; the templates need 6 or later'],
      ['missing', 'CDKToolkit in us-east-1 has no BootstrapVersion output (a bootstrap that failed?)'],
    ]);
    // A stage that brings its own web ACL has no edge stack: us-east-1 is not needed.
    const ownAcl = stage({
      webAclArn:
        'arn:aws:wafv2:us-east-1:111111111111:global/webacl/own/12345678-1234-1234-1234-123456789012',
    });
    expect(statuses(await check(ownAcl, { 'eu-central-1': '30' }))).toEqual(['ok CDK bootstrap']);
    // Each region was asked in its own region.
    const asked = await Promise.all(
      cloudFormation
        .commandCalls(DescribeStacksCommand, { StackName: 'CDKToolkit' })
        .map((call) => (call.thisValue as CloudFormationClient).config.region()),
    );
    expect(new Set(asked)).toEqual(new Set(['eu-central-1', 'us-east-1']));
  });

  it('wants the bootstrap version the synthesized templates check for', () => {
    const { backend } = synthPlatform();
    const rule = JSON.stringify(backend.toJSON().Rules?.CheckBootstrapVersion);
    const refused = Array.from({ length: minimumBootstrapVersion - 1 }, (_, i) => String(i + 1));
    expect(rule).toContain(JSON.stringify(refused));
  });

  it('checks the custom domain certificate: in us-east-1, issued, covering the domain', async () => {
    account({});
    const arn = 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012';
    const custom = stage({
      domainName: 'app.acme-test.de',
      siteUrl: 'https://app.acme-test.de',
      certificateArn: arn,
    });
    expect(
      (
        await preflight(custom, {
          certificates: certificates({ status: 'ISSUED', domainNames: ['*.acme-test.de'] }),
        })
      ).missing('Site domain'),
    ).toEqual([]);
    expect(
      (
        await preflight(custom, {
          certificates: certificates({ status: 'PENDING_VALIDATION', domainNames: ['app.acme-test.de'] }),
        })
      ).missing('Site domain'),
    ).toEqual(['the certificate is PENDING_VALIDATION, not ISSUED']);
    expect(
      (
        await preflight(custom, {
          certificates: certificates({ status: 'ISSUED', domainNames: ['www.acme-test.de'] }),
        })
      ).missing('Site domain'),
    ).toEqual(['the certificate covers www.acme-test.de, not app.acme-test.de']);
    expect((await preflight(custom, { certificates: certificates() })).missing('Site domain')).toEqual([
      `there is no certificate ${arn}`,
    ]);
    // The schema already refuses another region; the check holds on its own too.
    const elsewhere = { ...custom, certificateArn: arn.replace('us-east-1', 'eu-central-1') };
    expect((await preflight(elsewhere)).missing('Site domain')).toEqual([
      'the certificate is in eu-central-1; CloudFront only uses certificates from us-east-1',
    ]);
  });

  it('wires the real clients: too little unreserved concurrency and an unissued certificate are missing', async () => {
    account({});
    lambda(50);
    certificates({ status: 'PENDING_VALIDATION', domainNames: ['app.acme-test.de'] });
    toolkits({ 'eu-central-1': '30' });
    const ports = awsPreflightPorts('eu-central-1');
    try {
      const arn = 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012';
      const findings = await runPreflight(
        stage({ domainName: 'app.acme-test.de', siteUrl: 'https://app.acme-test.de', certificateArn: arn }),
        ports,
      );
      const missing = findings.filter((f) => f.status === 'missing').map((f) => f.check);
      expect(missing).toContain('Lambda concurrency');
      expect(missing).toContain('Site domain');
      // The bootstrap is read in the stage's region and in us-east-1.
      expect(statuses(findings.filter((f) => f.check === 'CDK bootstrap'))).toEqual([
        'ok CDK bootstrap',
        'missing CDK bootstrap',
      ]);
      expect(lambdaApi.commandCalls(GetAccountSettingsCommand)).toHaveLength(1);
      expect(acm.commandCalls(DescribeCertificateCommand)[0]?.args[0].input).toEqual({ CertificateArn: arn });
    } finally {
      ports.close();
    }
  });

  it('guides the two passes of a stage without a custom domain to the siteUrl CloudFront serves', async () => {
    account({ production: true });
    const address = async (config: StageConfig, stacks: StacksPort) =>
      (await preflight(config, { stacks })).findings.filter((f) => f.check === 'Site address');
    // Second pass: deployed, siteUrl still unset: names the value to set and the steps.
    const second = await address(stage({ siteUrl: undefined }), siteStack('d2222.cloudfront.net'));
    expect(second).toEqual([
      expect.objectContaining({
        status: 'missing',
        fix: expect.stringContaining('Set siteUrl to https://d2222.cloudfront.net'),
      }),
    ]);
    // A siteUrl that is not what the distribution serves, or set before any host exists.
    expect(await address(stage(), siteStack('d2222.cloudfront.net'))).toEqual([
      expect.objectContaining({ status: 'missing', detail: expect.stringContaining('serves https://d2222') }),
    ]);
    expect(await address(stage(), siteStack())).toEqual([
      expect.objectContaining({ status: 'missing', detail: expect.stringContaining('does not exist yet') }),
    ]);
    // Done: the siteUrl is the distribution's host.
    expect(await address(stage(), siteStack(exampleHost))).toEqual([
      expect.objectContaining({ status: 'ok' }),
    ]);
    expect(cloudFormation.commandCalls(DescribeStacksCommand).at(-1)?.args[0].input).toEqual({
      StackName: 'Platform-prod-Site',
    });
  });

  it('answers usage errors with exit status 2 and names the stage it cannot find', async () => {
    expect(await run([])).toMatchObject({ code: 2, stderr: expect.stringContaining('--stage is required') });
    expect(await run(['--stage', 'nosuchstage'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown stage "nosuchstage"'),
    });
  }, 60_000);

  it('exits 1 and prints what it could not check when AWS does not answer', async () => {
    // Every SDK client of the command sent to a port nobody listens on.
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const result = await run(['--stage', 'dev'], {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: 'preflight-test',
      AWS_SECRET_ACCESS_KEY: 'preflight-test',
      AWS_MAX_ATTEMPTS: '1',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Preflight of stage dev \(any account, eu-central-1\)/);
    expect(result.stdout).toMatch(/MISSING +SES identity: could not read the SES identity platform\.example/);
    expect(result.stdout).toMatch(/MISSING +Secrets: could not list the secrets/);
    expect(result.stdout).toContain('thing(s) missing');
  }, 60_000);
});
