import { ManagementClient } from 'auth0';
import type { StageConfig } from '#infra/stage-config.ts';
import type { DesiredTenant } from './desired.ts';
import { formatPlan } from './format.ts';
import { type Plan, type PlanOptions, planTenant } from './plan.ts';
import { assertProvisioningScopes } from './scopes.ts';
import { type ApplyOptions, type ApplyResult, applyPlan, readTenant } from './tenant.ts';

export interface ProvisioningCredentials {
  /** The tenant's canonical domain (`tenant.eu.auth0.com`), not a custom domain. */
  domain: string;
  clientId: string;
  clientSecret: string;
  /** Replaces the global fetch (tests intercept the Management API with it). */
  fetch?: typeof fetch;
}

/**
 * The Management API client provisioning works with, once its token has every scope provisioning
 * needs (./scopes.ts): the token is asked for here, so its granted `scope` is checked before any
 * call reads or changes the tenant.
 */
export async function createProvisioningClient({
  domain,
  clientId,
  clientSecret,
  fetch: fetchImpl = fetch,
}: ProvisioningCredentials): Promise<ManagementClient> {
  const response = await fetchImpl(`https://${domain}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      audience: `https://${domain}/api/v2/`,
    }),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    scope?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !answer.access_token) {
    throw new Error(
      `Auth0 (${domain}) gave the provisioning application no Management API token: ${response.status} ${answer.error ?? ''} ${answer.error_description ?? ''}`.trim() +
        '. Check AUTH0_DOMAIN (the tenant domain), AUTH0_CLIENT_ID, AUTH0_CLIENT_SECRET, and that the application is authorized for the Auth0 Management API (docs/deploying.md, 5.1).',
    );
  }
  assertProvisioningScopes(answer.scope);
  // Provisioning runs on an operator's machine, not in a Lambda: the SDK's own retries (which
  // honour Auth0's rate-limit headers) are welcome here. A token lasts a day: one run needs one.
  return new ManagementClient({ domain, token: answer.access_token, fetch: fetchImpl });
}

export interface ProvisionOptions extends PlanOptions, ApplyOptions {
  dryRun?: boolean;
  stage: string;
}

export interface ProvisionOutcome {
  plan: Plan;
  /** Absent on a dry run. */
  result?: ApplyResult;
}

/** Reads the tenant, plans, prints the plan, and (unless a dry run) applies only the difference. */
export async function provisionTenant(
  client: ManagementClient,
  desired: DesiredTenant,
  options: ProvisionOptions,
): Promise<ProvisionOutcome> {
  const log = options.log ?? (() => undefined);
  const plan = planTenant(desired, await readTenant(client, desired), options);
  log(formatPlan(plan, options.stage));
  if (options.dryRun) {
    if (plan.steps.length > 0 || plan.refusals.length > 0) log('Dry run: nothing was changed.');
    return { plan };
  }
  if (plan.refusals.length > 0) {
    throw new Error(
      `Provisioning refuses a tenant where people can sign themselves up; nothing was changed:\n${plan.refusals.map((r) => `  - ${r}`).join('\n')}`,
    );
  }
  if (plan.steps.length > 0) log('Applying:');
  const result = await applyPlan(client, desired, plan, options);
  return { plan, result };
}

/**
 * How the data stack names a secret's logical id (`SecretsAuth0Registration1A2B3C4D`), the name
 * docs/deploying.md section 4, preflight and `aws cloudformation list-stack-resources` show.
 */
export const secretLogicalIdPrefix = (key: string) => `Secrets${key[0]?.toUpperCase()}${key.slice(1)}`;

/** What the operator does next, with ids only: secrets stay in the Auth0 dashboard. */
export function nextSteps(
  desired: DesiredTenant,
  result: ApplyResult,
  { stage, region, siteUrl }: Pick<StageConfig, 'stage' | 'region' | 'siteUrl'>,
): string {
  const lines: string[] = [];
  if (result.spaClientId !== desired.spa.configuredClientId) {
    // A deploy without a build made for the stage's URL is refused (docs/deploying.md section 3).
    lines.push(
      `- Set auth0.spaClientId to "${result.spaClientId}" in the "${stage}" stage config, then build and deploy: SITE_URL=${siteUrl ?? '<siteUrl>'} npm run build && npx cdk deploy --all -c stage=${stage}`,
    );
  }
  for (const m2m of desired.m2m) {
    const app = result.m2m[m2m.key];
    lines.push(
      `- ${m2m.key}: its Management API credentials (${m2m.scope.join(' ')}) live in the data stack's secret ${secretLogicalIdPrefix(m2m.key)}... of stage ${stage}`,
      `  (description "Auth0 machine-to-machine credentials ..."), as JSON {"clientId","clientSecret"}:`,
      `    client id:     ${app.clientId}`,
      `    client secret: Auth0 dashboard > Applications > "${m2m.name}" > Settings > Client Secret`,
      `    aws secretsmanager put-secret-value --region ${region} --secret-id <${m2m.key} secret ARN> --secret-string file://${m2m.key}.json`,
      app.created
        ? '  The application was created just now: store its credentials before the functions need them.'
        : '  (Already stored? Nothing to do.)',
    );
  }
  return lines.join('\n');
}
