import type { StageConfig } from '#infra/stage-config.ts';
import { parseM2mCredentials } from '#lambdas/adapters/auth0-management-api.ts';
import { parseWebhookSecrets } from '#lambdas/domain/kyc/persona-signature.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { auth0M2mKeys, isAuth0M2mKey, type SecretKey } from '#lambdas/grants.ts';
import { acceptedOriginValues } from '#lambdas/http/edge.ts';
import { routes } from '#lambdas/routes.ts';

// What a first deploy of a stage needs from the AWS account, checked with read-only calls through
// the ports below (scripts/preflight/aws.ts implements them with the AWS SDK clients). Each
// finding is ok, missing (the deploy or the stage would fail: the command exits non-zero), later
// (created by the first deploy, to do after it) or a note.

export type FindingStatus = 'ok' | 'missing' | 'later' | 'note';
export interface Finding {
  check: string;
  status: FindingStatus;
  detail: string;
  /** What to do, for missing and later findings. */
  fix?: string;
}

export interface LambdaAccountPort {
  /** Lambda GetAccountSettings: the account's concurrency limit and what is not reserved yet. */
  concurrency(): Promise<{ limit: number; unreserved: number }>;
}
export interface EmailIdentityState {
  verified: boolean;
  /** The CloudFormation stack that created it, when it carries the `aws:cloudformation:stack-name` tag. */
  stackName?: string;
}
export interface SesPort {
  /** SES v2 GetAccount. */
  account(): Promise<{ productionAccess: boolean; sendingEnabled: boolean }>;
  /** SES v2 GetEmailIdentity; undefined when the identity does not exist. */
  identity(name: string): Promise<EmailIdentityState | undefined>;
}
export interface CertificatePort {
  /** ACM DescribeCertificate (in the ARN's region); undefined when there is no such certificate. */
  describe(arn: string): Promise<{ status: string; domainNames: string[] } | undefined>;
}
export interface SecretsPort {
  /** The secrets CloudFormation created in the stack (its `aws:cloudformation:*` tags), by logical id. */
  stackSecrets(stackName: string): Promise<{ logicalId: string; arn: string }[]>;
  /** The secret's current value; undefined when it has none. */
  value(arn: string): Promise<string | undefined>;
}
export interface StacksPort {
  /**
   * CloudFormation DescribeStacks: the stack's outputs by key; undefined when the stack does not
   * exist (or was deleted).
   */
  outputs(stackName: string): Promise<Record<string, string> | undefined>;
}
export interface PreflightPorts {
  lambda: LambdaAccountPort;
  ses: SesPort;
  certificates: CertificatePort;
  secrets: SecretsPort;
  stacks: StacksPort;
}

/** Lambda keeps this much of the account's concurrency unreserved: a reservation may not eat into it. */
export const minimumUnreservedConcurrency = 100;
/** Service Quotas code of "Concurrent executions" (AWS Lambda). */
export const lambdaConcurrencyQuotaCode = 'L-B99A9384';

/** What the stage's functions reserve: the `reservedConcurrency` of the routes and rules the backend stack builds. */
export function stageReservedConcurrency(): { total: number; functions: { id: string; reserved: number }[] } {
  const functions = [...routes, ...eventRules].flatMap((def) =>
    def.reservedConcurrency ? [{ id: def.id, reserved: def.reservedConcurrency }] : [],
  );
  return { total: functions.reduce((sum, f) => sum + f.reserved, 0), functions };
}

const dataStackName = (config: StageConfig) => `Platform-${config.stage}-Data`;
const siteStackName = (config: StageConfig) => `Platform-${config.stage}-Site`;

/** What went wrong in a port call, for the finding: the SDK's error name and message. */
const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

async function concurrencyCheck(config: StageConfig, lambda: LambdaAccountPort): Promise<Finding[]> {
  const check = 'Lambda concurrency';
  const reserved = stageReservedConcurrency();
  const list = reserved.functions.map((f) => `${f.id} ${f.reserved}`).join(', ');
  let account: { limit: number; unreserved: number };
  try {
    account = await lambda.concurrency();
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the account's Lambda settings (${describeError(error)})`,
        fix: `Check by hand: aws lambda get-account-settings --region ${config.region} --query AccountLimit (UnreservedConcurrentExecutions minus ${reserved.total} must stay at least ${minimumUnreservedConcurrency}).`,
      },
    ];
  }
  const left = account.unreserved - reserved.total;
  const facts = `the account allows ${account.limit} concurrent executions in ${config.region}, ${account.unreserved} unreserved; the stage reserves ${reserved.total} (${list}) and Lambda keeps ${minimumUnreservedConcurrency} unreserved`;
  if (left >= minimumUnreservedConcurrency) return [{ check, status: 'ok', detail: facts }];
  const wanted = account.limit - account.unreserved + reserved.total + minimumUnreservedConcurrency;
  return [
    {
      check,
      status: 'missing',
      detail: `${facts}: creating the backend stack would fail (a redeploy of this stage counts its own reservation twice here)`,
      fix:
        `Ask AWS for at least ${wanted} concurrent executions (new accounts often start at 10; 1000 is the usual default):\n` +
        `aws service-quotas request-service-quota-increase --region ${config.region} --service-code lambda --quota-code ${lambdaConcurrencyQuotaCode} --desired-value ${Math.max(1000, wanted)}\n` +
        `then wait for the increase (aws lambda get-account-settings --region ${config.region}).`,
    },
  ];
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
/** An identity covers an address when it is the address itself or its domain. */
const covers = (identity: string, address: string) =>
  identity.toLowerCase() === address.toLowerCase() || identity.toLowerCase() === domainOf(address);

async function sesChecks(config: StageConfig, ses: SesPort, dataStackDeployed: boolean): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { domain, operationsAddress, sandboxRecipients } = config.email;
  const region = config.region;
  let identity: EmailIdentityState | undefined;
  try {
    identity = await ses.identity(domain);
  } catch (error) {
    return [
      {
        check: 'SES identity',
        status: 'missing',
        detail: `could not read the SES identity ${domain} (${describeError(error)})`,
        fix: `Run with credentials that may call ses:GetEmailIdentity and ses:GetAccount in ${region}.`,
      },
    ];
  }
  const ours = identity?.stackName === dataStackName(config);
  if (identity && !dataStackDeployed && !ours) {
    findings.push({
      check: 'SES identity',
      status: 'missing',
      detail: `${domain} is already an SES identity in ${region}${identity.stackName ? ` (created by ${identity.stackName})` : ''}: the data stack creates its own and would fail`,
      fix: `Give this stage another email.domain (for example a subdomain, mail-${config.stage}.${domain}), or deploy it in another region or account (docs/deploying.md, "A second stage").`,
    });
  } else if (!identity) {
    findings.push(
      dataStackDeployed
        ? {
            check: 'SES identity',
            status: 'missing',
            detail: `${domain} is not an SES identity in ${region}, although ${dataStackName(config)} exists`,
            fix: 'Deploy the data stack again (it creates the identity).',
          }
        : {
            check: 'SES identity',
            status: 'later',
            detail: `${domain}: the data stack creates the identity`,
            fix: 'After the first deploy publish its DKIM records (docs/deploying.md section 7), then run the preflight again.',
          },
    );
  } else if (!identity.verified) {
    findings.push({
      check: 'SES identity',
      status: 'missing',
      detail: `${domain} is not verified for sending yet`,
      fix: `Publish its three DKIM CNAME records (aws sesv2 get-email-identity --region ${region} --email-identity ${domain} --query DkimAttributes.Tokens; docs/deploying.md section 7); SES verifies within about an hour.`,
    });
  } else {
    findings.push({ check: 'SES identity', status: 'ok', detail: `${domain} is verified for sending` });
  }

  let account: { productionAccess: boolean; sendingEnabled: boolean };
  try {
    account = await ses.account();
  } catch (error) {
    findings.push({
      check: 'SES account',
      status: 'missing',
      detail: `could not read the SES account (${describeError(error)})`,
      fix: `Run with credentials that may call ses:GetAccount in ${region}.`,
    });
    return findings;
  }
  if (!account.sendingEnabled) {
    findings.push({
      check: 'SES account',
      status: 'missing',
      detail: `sending is disabled for the account in ${region}`,
      fix: 'See the SES console (Account dashboard) for why, and ask AWS support to re-enable it.',
    });
  }
  if (account.productionAccess) {
    findings.push({
      check: 'SES sandbox',
      status: 'ok',
      detail: `the account has production access in ${region}`,
    });
    if (sandboxRecipients.length > 0) {
      findings.push({
        check: 'SES sandbox',
        status: 'note',
        detail: 'email.sandboxRecipients is set but no longer needed',
        fix: 'Remove it from the stage config and deploy again (least privilege).',
      });
    }
    return findings;
  }
  const production = `aws sesv2 put-account-details --region ${region} --production-access-enabled --mail-type TRANSACTIONAL --website-url ${config.siteUrl} --contact-language EN --use-case-description "..." (docs/deploying.md section 7)`;
  if (sandboxRecipients.length === 0) {
    findings.push({
      check: 'SES sandbox',
      status: 'missing',
      detail: `the account is in the SES sandbox in ${region} and the stage lists no email.sandboxRecipients: no registrant would get an email`,
      fix: `Request production access: ${production}\nUntil then, to test: verify your test addresses and list them in email.sandboxRecipients.`,
    });
  } else {
    findings.push({
      check: 'SES sandbox',
      status: 'note',
      detail: `the account is in the SES sandbox in ${region}: email goes only to ${[domain, ...sandboxRecipients].join(', ')}`,
      fix: `Before real users: ${production}`,
    });
    for (const recipient of sandboxRecipients) {
      let state: EmailIdentityState | undefined;
      try {
        state = await ses.identity(recipient);
      } catch (error) {
        findings.push({
          check: 'SES sandbox',
          status: 'missing',
          detail: `could not read the SES identity ${recipient} (${describeError(error)})`,
        });
        continue;
      }
      if (!state?.verified) {
        findings.push({
          check: 'SES sandbox',
          status: 'missing',
          detail: `sandbox recipient ${recipient} is ${state ? 'not verified yet' : 'not an SES identity'}`,
          fix: `aws sesv2 create-email-identity --region ${region} --email-identity ${recipient}, then open the link SES sends to it.`,
        });
      }
    }
  }
  if (!covers(domain, operationsAddress) && !sandboxRecipients.some((r) => covers(r, operationsAddress))) {
    findings.push({
      check: 'SES sandbox',
      status: 'missing',
      detail: `the operations address ${operationsAddress} is neither on ${domain} nor in email.sandboxRecipients: new registrations would not be announced`,
      fix: `Verify it (aws sesv2 create-email-identity --region ${region} --email-identity ${operationsAddress}) and add it to email.sandboxRecipients.`,
    });
  }
  return findings;
}

/** The region of an ACM certificate ARN (`arn:aws:acm:<region>:...`). */
const arnRegion = (arn: string) => arn.split(':')[3] ?? '';
const certificateCovers = (names: string[], host: string) =>
  names.some(
    (name) => name === host || (name.startsWith('*.') && host.slice(host.indexOf('.') + 1) === name.slice(2)),
  );

async function siteChecks(config: StageConfig, certificates: CertificatePort): Promise<Finding[]> {
  const check = 'Site domain';
  if (!config.domainName || !config.certificateArn) {
    return [
      {
        check,
        status: 'note',
        detail: `no domainName: the site's address is the CloudFront host, known after the first deploy (output ${siteStackName(config)}.DistributionDomainName)`,
        fix: `After the first deploy: aws cloudformation describe-stacks --region ${config.region} --stack-name ${siteStackName(config)} --query "Stacks[0].Outputs[?OutputKey=='DistributionDomainName'].OutputValue" --output text`,
      },
    ];
  }
  const region = arnRegion(config.certificateArn);
  if (region !== 'us-east-1') {
    return [
      {
        check,
        status: 'missing',
        detail: `the certificate is in ${region}; CloudFront only uses certificates from us-east-1`,
        fix: `aws acm request-certificate --region us-east-1 --domain-name ${config.domainName} --validation-method DNS, validate it, and set certificateArn.`,
      },
    ];
  }
  let certificate: { status: string; domainNames: string[] } | undefined;
  try {
    certificate = await certificates.describe(config.certificateArn);
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the certificate (${describeError(error)})`,
        fix: `Check by hand: aws acm describe-certificate --region us-east-1 --certificate-arn ${config.certificateArn} --query "Certificate.[Status,SubjectAlternativeNames]" (ISSUED, covering ${config.domainName}).`,
      },
    ];
  }
  if (!certificate) {
    return [
      {
        check,
        status: 'missing',
        detail: `there is no certificate ${config.certificateArn}`,
        fix: `aws acm list-certificates --region us-east-1 shows the account's certificates.`,
      },
    ];
  }
  const findings: Finding[] = [];
  if (certificate.status !== 'ISSUED') {
    findings.push({
      check,
      status: 'missing',
      detail: `the certificate is ${certificate.status}, not ISSUED`,
      fix: `Add its DNS validation record (aws acm describe-certificate --region us-east-1 --certificate-arn ${config.certificateArn}).`,
    });
  }
  if (!certificateCovers(certificate.domainNames, config.domainName)) {
    findings.push({
      check,
      status: 'missing',
      detail: `the certificate covers ${certificate.domainNames.join(', ')}, not ${config.domainName}`,
      fix: `Request one for ${config.domainName} in us-east-1.`,
    });
  }
  if (findings.length === 0)
    findings.push({
      check,
      status: 'ok',
      detail: `the certificate in us-east-1 is issued for ${config.domainName}`,
    });
  return findings;
}

/** The secret's construct id in the data stack (`Secrets` + the key in PascalCase), its logical id's prefix. */
const secretIdOf = (key: SecretKey) => `Secrets${key[0]?.toUpperCase()}${key.slice(1)}`;
const secretKeys: SecretKey[] = [...auth0M2mKeys, 'personaApiKey', 'personaWebhookSecret', 'originVerify'];

/** Why a secret's value would not work, or undefined when it parses as its reader expects. */
export function secretProblem(key: SecretKey, value: string): string | undefined {
  if (isAuth0M2mKey(key)) {
    try {
      parseM2mCredentials(value);
      return undefined;
    } catch {
      return 'is not JSON {"clientId","clientSecret"} (still the generated placeholder?)';
    }
  }
  if (key === 'personaApiKey') {
    return /^persona_(sandbox|production)_\S+$/.test(value)
      ? undefined
      : 'is not a Persona API key (persona_sandbox_... or persona_production_...)';
  }
  if (key === 'personaWebhookSecret') {
    const secrets = parseWebhookSecrets(value);
    return secrets.length > 0 && secrets.every((s) => s.startsWith('wbhsec_'))
      ? undefined
      : 'is not a Persona webhook secret (wbhsec_..., two separated by a space while rotating)';
  }
  return acceptedOriginValues(value).length > 0
    ? undefined
    : 'is not JSON {"current","previous"} with a current value of 16 characters or more';
}

async function secretChecks(
  config: StageConfig,
  secrets: SecretsPort,
): Promise<{ findings: Finding[]; deployed: boolean }> {
  const check = 'Secrets';
  const stack = dataStackName(config);
  let found: { logicalId: string; arn: string }[];
  try {
    found = await secrets.stackSecrets(stack);
  } catch (error) {
    return {
      deployed: false,
      findings: [
        {
          check,
          status: 'missing',
          detail: `could not list the secrets (${describeError(error)})`,
          fix: `Run with credentials that may call secretsmanager:ListSecrets and GetSecretValue in ${config.region}.`,
        },
      ],
    };
  }
  if (found.length === 0) {
    return {
      deployed: false,
      findings: [
        {
          check,
          status: 'later',
          detail: `${stack} is not deployed yet: the first deploy creates the secrets with generated placeholder values`,
          fix: 'Fill them after the first deploy (docs/deploying.md section 4), then run the preflight again.',
        },
      ],
    };
  }
  const findings: Finding[] = [];
  for (const key of secretKeys) {
    const secret = found.find(
      (s) =>
        s.logicalId.startsWith(secretIdOf(key)) &&
        /^[0-9A-F]{8}$/.test(s.logicalId.slice(secretIdOf(key).length)),
    );
    if (!secret) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} does not exist in ${stack}`,
        fix: 'Deploy the data stack again.',
      });
      continue;
    }
    let problem: string | undefined;
    try {
      const value = await secrets.value(secret.arn);
      problem = value === undefined ? 'has no value' : secretProblem(key, value);
    } catch (error) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} could not be read (${describeError(error)})`,
        fix: `Run with credentials that may call secretsmanager:GetSecretValue on ${secret.arn}.`,
      });
      continue;
    }
    if (problem) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} ${problem}`,
        fix: `aws secretsmanager put-secret-value --region ${config.region} --secret-id ${secret.arn} --secret-string file://${key}.${isAuth0M2mKey(key) || key === 'originVerify' ? 'json' : 'txt'} (docs/deploying.md section 4)`,
      });
    }
  }
  if (findings.length === 0)
    findings.push({
      check,
      status: 'ok',
      detail: `all ${secretKeys.length} secrets of ${stack} hold values that parse`,
    });
  return { findings, deployed: true };
}

/** Every check of the stage, in the order an operator fixes them. */
/**
 * The site's address against the deployed distribution (ADR 0040's two passes for a stage without
 * a custom domain): links in emails and Auth0's callback URLs are built from `siteUrl`, so it must
 * name the host CloudFront actually serves.
 */
async function siteAddressCheck(config: StageConfig, stacks: StacksPort): Promise<Finding[]> {
  const check = 'Site address';
  const stack = siteStackName(config);
  let outputs: Record<string, string> | undefined;
  try {
    outputs = await stacks.outputs(stack);
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the stack ${stack}: ${error instanceof Error ? error.message : String(error)}`,
        fix: `Check by hand: aws cloudformation describe-stacks --region ${config.region} --stack-name ${stack}`,
      },
    ];
  }
  const host = outputs?.DistributionDomainName;
  const expected = config.domainName ? `https://${config.domainName}` : host ? `https://${host}` : undefined;
  if (!outputs) {
    if (config.domainName) return [{ check, status: 'ok', detail: `${config.siteUrl} (the custom domain)` }];
    if (!config.siteUrl)
      return [
        {
          check,
          status: 'later',
          detail:
            'first pass: deploy without siteUrl; emails (login instructions, decisions, deletion confirmations) fail until the second pass',
          fix: `After the first deploy run the preflight again: it names the siteUrl to set (docs/deploying.md, "A stage without a custom domain").`,
        },
      ];
    return [
      {
        check,
        status: 'missing',
        detail: `siteUrl is ${config.siteUrl}, but ${stack} does not exist yet, so no CloudFront host is known`,
        fix: 'Leave siteUrl out for the first deploy (or set domainName and certificateArn).',
      },
    ];
  }
  if (!expected) {
    return [
      {
        check,
        status: 'missing',
        detail: `${stack} exists but has no DistributionDomainName output`,
        fix: `aws cloudformation describe-stacks --region ${config.region} --stack-name ${stack} shows its state; deploy it again.`,
      },
    ];
  }
  if (config.siteUrl === expected)
    return [{ check, status: 'ok', detail: `${expected} is what ${stack} serves` }];
  return [
    {
      check,
      status: 'missing',
      detail: config.siteUrl
        ? `siteUrl is ${config.siteUrl}, but ${stack} serves ${expected}`
        : `second pass: the site is deployed at ${expected}, and siteUrl is not set`,
      fix: `Set siteUrl to ${expected} in the stage file, provision Auth0 again (npm run auth0:provision), build with SITE_URL=${expected} (npm run build) and deploy again.`,
    },
  ];
}

export async function runPreflight(config: StageConfig, ports: PreflightPorts): Promise<Finding[]> {
  const secrets = await secretChecks(config, ports.secrets);
  return [
    ...(await concurrencyCheck(config, ports.lambda)),
    ...(await sesChecks(config, ports.ses, secrets.deployed)),
    ...(await siteChecks(config, ports.certificates)),
    ...(await siteAddressCheck(config, ports.stacks)),
    ...secrets.findings,
  ];
}

const labels: Record<FindingStatus, string> = { ok: 'ok', missing: 'MISSING', later: 'later', note: 'note' };

/** The report the command prints; its exit status is 1 when any finding is missing. */
export function formatFindings(config: StageConfig, findings: Finding[]): string {
  const lines = [`Preflight of stage ${config.stage} (${config.account ?? 'any account'}, ${config.region})`];
  for (const finding of findings) {
    lines.push(`  ${labels[finding.status].padEnd(8)}${finding.check}: ${finding.detail}`);
    if (finding.fix) for (const line of finding.fix.split('\n')) lines.push(`${' '.repeat(10)}${line}`);
  }
  const missing = findings.filter((f) => f.status === 'missing').length;
  const later = findings.filter((f) => f.status === 'later').length;
  lines.push(
    missing > 0
      ? `${missing} thing(s) missing: fix them and run the preflight again.`
      : later > 0
        ? 'Ready for the first deploy; run the preflight again after it for the steps marked "later".'
        : 'Nothing missing.',
  );
  return lines.join('\n');
}
