import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';

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

export const stageConfig = z
  .strictObject({
    stage: z.string().regex(/^[a-z][a-z0-9-]{1,20}$/, 'lower-case letters, digits and dashes'),
    account: z
      .string()
      .regex(/^\d{12}$/)
      .optional(),
    region: z.string().min(1),
    /** The site's public origin, e.g. `https://app.example.com` (links in emails, Auth0 callbacks). */
    siteUrl: z.url(),
    auth0: z.strictObject({
      domain: z.string().min(1),
      audience: z.string().min(1),
      spaClientId: z.string().min(1),
      claimsNamespace: z.url(),
    }),
    persona: z.strictObject({
      templateId: z.string().startsWith('itmpl_'),
      environmentId: z.string().startsWith('env_'),
      apiUrl: z.url().default('https://withpersona.com'),
    }),
    email: z.strictObject({
      /** Verified SES identity domain; the sender address must be on it. */
      domain: z.string().min(1),
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
      .default(365),
    /** Custom domain of the site (e.g. `app.example.com`); requires `certificateArn`. */
    domainName: z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a lower-case DNS name',
      )
      .optional(),
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
  });
export type StageConfig = z.infer<typeof stageConfig>;

/** The example stage: `npm run synth` works offline on a fresh clone with it. */
export const exampleStages: Record<string, z.input<typeof stageConfig>> = {
  dev: {
    stage: 'dev',
    region: 'eu-central-1',
    siteUrl: 'https://dev.platform.example',
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
