import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { logRetentionDays } from '#contracts/retention.ts';

const retentionValues = new Set<number>(
  Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'),
);

// Per-stage deployment values, validated once in bin/ (CDK best practice: config comes in as
// props; nothing below bin/ reads context or the environment).
//
// A stage comes from `exampleStages` below or from `cdk.json` (or `-c`) context, which wins:
//   "context": { "stages": { "prod": { "stage": "prod", "region": "eu-central-1", ... } } }
// and is selected with `npx cdk deploy --all -c stage=prod`. Every bad key is reported at once.

/** CloudFront only accepts ACM certificates from us-east-1. */
const cloudFrontCertificateArn = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/,
    'must be an ACM certificate ARN in us-east-1 (CloudFront only uses certificates from there)',
  );

/** A lower-case DNS host name, no scheme, port or path. */
const hostName = (message: string) =>
  z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, message);

/**
 * Auth0's own tenant host names (`tenant.auth0.com`, `tenant.eu.auth0.com`): the only hosts that
 * serve the Management API and its token audience, whatever custom domain users sign in at.
 */
export const canonicalAuth0Domain = /^[a-z0-9][a-z0-9-]*(\.[a-z]{2}[0-9]?)?\.auth0\.com$/;

/** Auth0 drops custom claims whose namespace is one of its own domains. */
const reservedClaimHosts = /(^|\.)(auth0\.com|webtask\.io|webtask\.run)$/;

/** `https://host` exactly: links and Auth0 callbacks are built as `${siteUrl}/path`. */
function isHttpsOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.origin === value;
  } catch {
    return false;
  }
}

/** The CloudFront host every distribution answers at; without `domainName` the only one it serves. */
const cloudFrontHost = /^[a-z0-9]+\.cloudfront\.net$/;

export const stageConfig = z
  .strictObject({
    // Stack names (`Platform-<stage>-Data`), the Auth0 Action (`platform-<stage>-post-login`) and
    // the WAF metric are built from it; CloudFormation stack names must start with a letter.
    stage: z
      .string()
      .regex(
        /^[a-z][a-z0-9-]{1,20}$/,
        'must start with a lower-case letter, followed by lower-case letters, digits and dashes (2-21 characters in all)',
      ),
    account: z
      .string()
      .regex(/^\d{12}$/, 'must be a 12-digit AWS account id')
      .optional(),
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must be an AWS region name such as eu-central-1'),
    /**
     * The site's public origin (links in emails, Auth0 callbacks). With `domainName` it is
     * `https://<domainName>` (and may be left out); without, it is the distribution's CloudFront
     * host, known after the first deploy (docs/deploying.md, "A stage without a custom domain").
     */
    siteUrl: z
      .string()
      .refine(
        isHttpsOrigin,
        'must be an https origin without path, query or trailing slash (https://app.example.com)',
      )
      .optional(),
    auth0: z.strictObject({
      /** The host users sign in at and that issues the tokens: a custom domain, or the canonical one. */
      domain: hostName(
        'must be a bare lower-case host name (login.example.com or tenant.eu.auth0.com), without https:// or a path',
      ),
      /**
       * The tenant's canonical domain (`tenant.eu.auth0.com`): the Management API's token URL and
       * audience. Required when `domain` is a custom domain; defaults to `domain` otherwise.
       */
      tenantDomain: z
        .string()
        .regex(
          canonicalAuth0Domain,
          "must be the tenant's canonical domain (tenant.auth0.com or tenant.<region>.auth0.com): only there is the Management API",
        )
        .optional(),
      audience: z.string().min(1),
      spaClientId: z.string().min(1),
      claimsNamespace: z
        .url()
        .refine(
          (value) => value.endsWith('/'),
          'must end with "/" (claims are named <namespace>role, <namespace>kyc_status, ...)',
        )
        .refine((value) => {
          try {
            return !reservedClaimHosts.test(new URL(value).hostname);
          } catch {
            return true;
          }
        }, 'must not be on auth0.com, webtask.io or webtask.run: Auth0 drops claims under its own domains'),
      /**
       * Connections besides the database connection that may stay enabled for the SPA (a social or
       * passwordless one), each only while its own sign-up is off: provisioning refuses any other
       * (ADR 0074). Empty by default: the database connection alone.
       */
      extraConnections: z
        .array(z.string().trim().min(1, 'must name a connection').max(128))
        .max(20)
        .refine((names) => new Set(names).size === names.length, 'must not name a connection twice')
        .default([]),
    }),
    persona: z.strictObject({
      templateId: z.string().startsWith('itmpl_'),
      environmentId: z.string().startsWith('env_'),
      apiUrl: z
        .url()
        .refine((value) => value.startsWith('https://'), 'must be an https URL')
        .default('https://withpersona.com'),
    }),
    email: z.strictObject({
      /** Verified SES identity domain; the sender address must be on it. */
      domain: hostName('must be a bare lower-case domain name (example.com)'),
      sender: z.email(),
      operationsAddress: z.email(),
      /**
       * While the account is in the SES sandbox, SES checks the recipient's identity too: the
       * addresses or domains, verified in SES, the functions may send to (the operations address
       * among them unless it is on `domain`). Remove them once the account has production access.
       */
      sandboxRecipients: z
        .array(
          z.union([
            z.email(),
            z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/),
          ]),
        )
        .default([]),
    }),
    logRetentionDays: z
      .number()
      .refine(
        (days) => retentionValues.has(days),
        'must be a CloudWatch Logs retention value (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, ...)',
      )
      // The privacy policy states the retention table's period (ADR 0077): a stage may keep less.
      .refine(
        (days) => days <= logRetentionDays,
        `must be at most ${logRetentionDays}, the logs' period in the retention table (lambdas/contracts/retention.ts) that the privacy policy states`,
      )
      .default(logRetentionDays),
    /** Custom domain of the site (e.g. `app.example.com`); requires `certificateArn`. */
    domainName: hostName('must be a lower-case DNS name').optional(),
    /** ACM certificate (us-east-1) covering `domainName`; requires `domainName`. */
    certificateArn: cloudFrontCertificateArn.optional(),
    /**
     * The stage's own AWS WAF web ACL (scope CLOUDFRONT, so created in us-east-1) instead of the one
     * the edge stack creates; it must carry the per-IP rule on the public forms (ADR 0032).
     */
    webAclArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[0-9a-f-]{36}$/,
        'must be a WAFv2 web ACL ARN with scope CLOUDFRONT (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)',
      )
      .optional(),
    /**
     * Four-eyes decisions (ADR 0080): approving a defense or government organization, and
     * reversing any decision, need a second, different admin. Off by default; on for production.
     */
    fourEyes: z.boolean().default(false),
    /** Operators' address subscribed to the alarm topic (they confirm the subscription once). */
    alarmEmail: z.email().optional(),
    /**
     * A demo stage may deploy a local web build (`npm run build:local`: placeholder company
     * details, example canonical URL); any other stage refuses one at synthesis.
     */
    demo: z.boolean().default(false),
  })
  .superRefine((config, ctx) => {
    // Both or neither: a domain without a certificate cannot be served over TLS, and a certificate
    // without its domain is a mistake worth stopping the deploy for.
    if (config.domainName && !config.certificateArn) {
      ctx.addIssue({
        code: 'custom',
        path: ['certificateArn'],
        message: 'is required when domainName is set',
      });
    }
    if (config.certificateArn && !config.domainName) {
      ctx.addIssue({
        code: 'custom',
        path: ['domainName'],
        message: 'is required when certificateArn is set',
      });
    }
    // CloudFront uses a certificate of its own account only.
    const certificateAccount = config.certificateArn?.split(':')[4];
    if (config.account && certificateAccount && certificateAccount !== config.account) {
      ctx.addIssue({
        code: 'custom',
        path: ['certificateArn'],
        message: `must be in the stage's account ${config.account}, not ${certificateAccount}`,
      });
    }
    // The site is served at `domainName` when it has one, otherwise only at its CloudFront host:
    // any other siteUrl would put unreachable links in emails and Auth0 callbacks.
    if (config.siteUrl && isHttpsOrigin(config.siteUrl)) {
      const host = new URL(config.siteUrl).hostname;
      if (config.domainName && host !== config.domainName) {
        ctx.addIssue({
          code: 'custom',
          path: ['siteUrl'],
          message: `must be https://${config.domainName} (the stage's domainName), or be left out`,
        });
      }
      if (!config.domainName && !cloudFrontHost.test(host)) {
        ctx.addIssue({
          code: 'custom',
          path: ['siteUrl'],
          message:
            "without domainName must be the distribution's https://<id>.cloudfront.net (the Site stack's DistributionDomainName output); set domainName and certificateArn for your own domain",
        });
      }
    }
    const { domain, tenantDomain } = config.auth0;
    if (!tenantDomain && !canonicalAuth0Domain.test(domain)) {
      ctx.addIssue({
        code: 'custom',
        path: ['auth0', 'tenantDomain'],
        message: `is required when auth0.domain (${domain}) is a custom domain: the tenant's canonical domain (tenant.eu.auth0.com), where the Management API is`,
      });
    }
    if (tenantDomain && canonicalAuth0Domain.test(domain) && tenantDomain !== domain) {
      ctx.addIssue({
        code: 'custom',
        path: ['auth0', 'tenantDomain'],
        message: `names another tenant than auth0.domain (${domain}); leave it out when auth0.domain is canonical`,
      });
    }
    // SES sends only from its verified identity, and the functions may only use this one sender.
    const senderDomain = config.email.sender.split('@').pop()?.toLowerCase();
    if (senderDomain !== config.email.domain) {
      ctx.addIssue({
        code: 'custom',
        path: ['email', 'sender'],
        message: `must be an address on email.domain (${config.email.domain}): SES sends only from the verified domain`,
      });
    }
  })
  .transform((config) => ({
    ...config,
    siteUrl: config.siteUrl ?? (config.domainName ? `https://${config.domainName}` : undefined),
    auth0: { ...config.auth0, tenantDomain: config.auth0.tenantDomain ?? config.auth0.domain },
  }));
export type StageConfig = z.infer<typeof stageConfig>;

/** The example stage: `npm run synth` works offline on a fresh clone with it. */
export const exampleStages: Record<string, z.input<typeof stageConfig>> = {
  dev: {
    stage: 'dev',
    region: 'eu-central-1',
    // No custom domain: the distribution's CloudFront host (a placeholder id here).
    siteUrl: 'https://d111111abcdef8.cloudfront.net',
    auth0: {
      domain: 'platform-dev.eu.auth0.com',
      audience: 'https://api.platform.example',
      spaClientId: 'REPLACE_WITH_SPA_CLIENT_ID',
      claimsNamespace: 'https://platform.example/',
    },
    persona: { templateId: 'itmpl_REPLACE_ME', environmentId: 'env_REPLACE_ME' },
    email: {
      domain: 'platform.example',
      sender: 'no-reply@platform.example',
      operationsAddress: 'operations@platform.example',
    },
    // Placeholder values throughout: it may also deploy a local build.
    demo: true,
  },
};

export function parseStageConfig(raw: unknown): StageConfig {
  const result = stageConfig.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`Invalid stage configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}
