import { ManagementClient } from 'auth0';
import type { StageConfig } from '#infra/stage-config.ts';
import type { AdminAuditEntry, AdminAuditLog, AuditDetails } from '#lambdas/domain/admin-audit/trail.ts';
import type { DesiredTenant } from './desired.ts';
import { formatPlan } from './format.ts';
import { type Plan, type PlanOptions, planTenant, type Step } from './plan.ts';
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

/**
 * Where an apply is recorded (ADR 0078): every run that changes the tenant appends a
 * `provisioning_applied` entry to the admin audit trail, with the operator's AWS principal.
 */
export interface ProvisioningTrail {
  log: Pick<AdminAuditLog, 'head' | 'append'>;
  operatorId: string;
  /** What the operator ran (`npm run auth0:provision --stage prod`), kept as the entry's reason. */
  command: string;
}

export interface ProvisionOptions extends PlanOptions, ApplyOptions {
  dryRun?: boolean;
  stage: string;
  /** Required unless a dry run: no apply goes unrecorded. */
  trail?: ProvisioningTrail;
}

export interface ProvisionOutcome {
  plan: Plan;
  /** Absent on a dry run. */
  result?: ApplyResult;
  /** The trail's entry of this apply; absent on a dry run and when there was nothing to apply. */
  entry?: AdminAuditEntry;
}

/** A run that would change the tenant without a trail to record it in: refused before anything is read. */
export class ProvisioningTrailRequiredError extends Error {
  constructor() {
    super(
      'Provisioning applies only with the admin audit trail to record the apply in; nothing was read or changed.',
    );
    this.name = 'ProvisioningTrailRequiredError';
  }
}

/**
 * The entry's details: counts and names only, never a value (the Action's secrets are named by
 * whether they were written, nothing more). `outcome` is `failed` when a step failed after others
 * had been applied: the tenant changed all the same.
 */
export function provisioningDetails(
  stage: string,
  plan: Plan,
  applied: readonly Step[],
  outcome: 'applied' | 'failed',
): AuditDetails {
  const count = (op: Step['op']) => applied.filter((step) => step.op === op).length;
  return {
    stage,
    outcome,
    planned: plan.steps.length,
    applied: applied.length,
    created: count('create'),
    updated: count('update'),
    deployed: count('deploy'),
    otherSteps: applied.length - count('create') - count('update') - count('deploy'),
    resources: [...new Set(applied.map((step) => step.resource))].join(' '),
    actionSecretsWritten: applied.some(
      (step) =>
        step.resource === 'action' &&
        (step.op === 'create' || (step.op === 'update' && step.changes.some((c) => c.field === 'secrets'))),
    ),
  };
}

/**
 * Reads the tenant, plans, prints the plan, and (unless a dry run) applies only the difference and
 * records the apply in the admin audit trail. A run that is not a dry run checks first that the
 * trail can be read (its head): a wrong table or a missing permission stops it before anything is
 * read from or changed in the tenant. A plan with no steps changes nothing and records nothing.
 * An apply that fails after some steps is recorded too (`outcome: failed`), then the error thrown.
 */
export async function provisionTenant(
  client: ManagementClient,
  desired: DesiredTenant,
  options: ProvisionOptions,
): Promise<ProvisionOutcome> {
  const log = options.log ?? (() => undefined);
  const trail = options.trail;
  if (!options.dryRun) {
    if (!trail) throw new ProvisioningTrailRequiredError();
    await trail.log.head();
  }
  const plan = planTenant(desired, await readTenant(client, desired), options);
  log(formatPlan(plan, options.stage));
  if (options.dryRun || !trail) {
    if (plan.steps.length > 0 || plan.refusals.length > 0) log('Dry run: nothing was changed.');
    return { plan };
  }
  if (plan.refusals.length > 0) {
    throw new Error(
      `Provisioning refuses a tenant where people can sign themselves up; nothing was changed:\n${plan.refusals.map((r) => `  - ${r}`).join('\n')}`,
    );
  }
  if (plan.steps.length > 0) log('Applying:');
  const applied: Step[] = [];
  const record = (outcome: 'applied' | 'failed') =>
    trail.log.append({
      actorType: 'operator',
      actorId: trail.operatorId,
      action: 'provisioning_applied',
      targetType: 'auth0_tenant',
      targetId: plan.managementDomain,
      reasonCode: null,
      reason: trail.command,
      details: provisioningDetails(options.stage, plan, applied, outcome),
      requestId: null,
    });
  let result: ApplyResult;
  try {
    result = await applyPlan(client, desired, plan, {
      ...options,
      onApplied: (step) => {
        applied.push(step);
        options.onApplied?.(step);
      },
    });
  } catch (error) {
    if (applied.length > 0) {
      try {
        const entry = await record('failed');
        log(
          `Recorded the partial apply (${applied.length} of ${plan.steps.length} steps) in the admin audit trail: entry #${entry.sequence}.`,
        );
      } catch (appendError) {
        log(unrecordedMessage(plan, applied, appendError));
      }
    }
    throw error;
  }
  if (applied.length === 0) return { plan, result };
  let entry: AdminAuditEntry;
  try {
    entry = await record('applied');
  } catch (appendError) {
    throw new Error(unrecordedMessage(plan, applied, appendError), { cause: appendError });
  }
  log(
    `Recorded in the admin audit trail: entry #${entry.sequence} (provisioning_applied, by ${entry.actorId}).`,
  );
  return { plan, result, entry };
}

function unrecordedMessage(plan: Plan, applied: readonly Step[], error: unknown): string {
  const steps = applied.map((step) => `${step.op} ${step.label}`).join('; ');
  return `The tenant was changed (${applied.length} of ${plan.steps.length} steps: ${steps}), but the apply could not be appended to the admin audit trail: ${error instanceof Error ? error.message : String(error)}. Keep this output as the record of the apply and report it to whoever audits the trail.`;
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
