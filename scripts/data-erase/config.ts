import { readFile } from 'node:fs/promises';
import { parseM2mCredentials } from '#lambdas/adapters/auth0-management-api.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import type { StackInfo } from '#local/stack.ts';
import { awsOperatorId, localOperatorId } from '../lib/operator.ts';

// Where the erasure runs: the local stack (everything from stack.json) or an AWS stage (table
// names and secret ids from the environment, operator credentials from the default AWS chain).

export interface EraseConfig {
  dynamodb: {
    /** Unset in AWS: the SDK's regional endpoint. */
    endpoint?: string | undefined;
    region?: string | undefined;
    credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
    tables: { submissions: string; kycState: string; consentLedger: string; adminAuditLog: string };
  };
  /** Who runs it, for the admin trail (ADR 0078). */
  operatorId: string;
  auth0: { domain: string; baseUrl?: string | undefined; clientId: string; clientSecret: string };
  persona: { url: string; apiKey: string };
}

function table(info: StackInfo, logicalName: string): string {
  const name = info.dynamodb.tables[logicalName];
  if (!name) throw new Error(`stack.json has no table ${logicalName}`);
  return name;
}

export function configFromStack(info: StackInfo): EraseConfig {
  const issuer = new URL(info.idp.issuer);
  return {
    dynamodb: {
      endpoint: info.dynamodb.endpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      tables: {
        submissions: table(info, 'Submissions'),
        kycState: table(info, 'KycState'),
        consentLedger: table(info, 'ConsentLedger'),
        adminAuditLog: table(info, 'AdminAuditLog'),
      },
    },
    operatorId: localOperatorId(),
    auth0: {
      domain: issuer.host,
      baseUrl: issuer.origin,
      // The erasure's own application: read and delete users, nothing else (ADR 0034).
      clientId: info.idp.m2mClients.auth0Erasure.clientId,
      clientSecret: info.idp.m2mClients.auth0Erasure.clientSecret,
    },
    persona: { url: info.persona.url, apiKey: info.persona.apiKey },
  };
}

export async function configFromStackFile(path: string): Promise<EraseConfig> {
  return configFromStack(JSON.parse(await readFile(path, 'utf8')) as StackInfo);
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Set ${name} (or pass --stack .local/stack.json for the local stack)`);
  return value;
}

/**
 * An AWS stage: `SUBMISSIONS_TABLE`, `KYC_STATE_TABLE`, `CONSENT_LEDGER_TABLE`, `ADMIN_AUDIT_TABLE`, `AUTH0_DOMAIN`,
 * `AUTH0_ERASURE_SECRET_ID` (the auth0Erasure secret), `PERSONA_API_KEY_SECRET_ID` and optionally `PERSONA_API_URL`; the
 * secrets are read with the operator's credentials.
 */
export async function configFromEnv(
  env: NodeJS.ProcessEnv,
  readSecret: (secretId: string) => Promise<string>,
  operatorId: () => Promise<string> = awsOperatorId,
): Promise<EraseConfig> {
  const m2m = parseM2mCredentials(await readSecret(required(env, secretEnvVars.auth0Erasure)));
  return {
    dynamodb: {
      tables: {
        submissions: required(env, 'SUBMISSIONS_TABLE'),
        kycState: required(env, 'KYC_STATE_TABLE'),
        consentLedger: required(env, 'CONSENT_LEDGER_TABLE'),
        adminAuditLog: required(env, 'ADMIN_AUDIT_TABLE'),
      },
    },
    operatorId: await operatorId(),
    auth0: {
      domain: required(env, 'AUTH0_DOMAIN'),
      baseUrl: env.AUTH0_MANAGEMENT_BASE_URL || undefined,
      clientId: m2m.clientId,
      clientSecret: m2m.clientSecret,
    },
    persona: {
      url: env.PERSONA_API_URL || 'https://withpersona.com',
      apiKey: await readSecret(required(env, 'PERSONA_API_KEY_SECRET_ID')),
    },
  };
}
