import type { Management } from 'auth0';
import type { OrganizationRole } from '#contracts/organization.ts';
import type { Auth0M2mKey } from '#lambdas/grants.ts';
import type { DesiredClient, DesiredTenant, M2mResource, Settings } from './desired.ts';

// The difference between what a tenant holds and what the stage needs, as an ordered list of
// steps. Pure: reading the tenant and applying the steps live elsewhere, so the plan can be
// printed (--dry-run) and tested without a tenant.

/** What the provisioning reads from the tenant before planning (secrets are never requested). */
export interface TenantSnapshot {
  clients: Management.Client[];
  resourceServers: Management.ResourceServer[];
  /** Grants on the Management API audience. */
  grants: Management.ClientGrantResponseContent[];
  /** Custom Actions that support the post-login trigger. */
  actions: Management.Action[];
  /** The post-login trigger's bindings, in execution order. */
  bindings: Management.ActionBinding[];
  /** Database connections with the desired name (one is expected). */
  connections: Management.ConnectionForList[];
  /** The client ids the found connection is enabled for. */
  connectionClients: string[];
  /** The connections enabled for the SPA (none before the SPA exists). */
  spaConnections: Management.ConnectionForList[];
  /** The tenant's roles (the organization roles are found among them by name). */
  roles: Management.Role[];
}

export type Resource =
  | 'spa'
  | 'api'
  /** One function's M2M application, and its grant on the Management API. */
  | M2mResource
  | `grant:${Auth0M2mKey}`
  | 'action'
  | 'connection'
  | 'binding'
  | 'connectionClients'
  /** An organization role (issue 27). */
  | `role:${OrganizationRole}`;
/** Resources created or updated field by field (the others have their own step kinds). */
type FieldResource = Exclude<Resource, 'binding' | 'connectionClients'>;

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface BindingRef {
  ref: { type: 'action_id' | 'action_name'; value: string };
  display_name: string;
}

export type Step =
  | { op: 'create'; resource: FieldResource; label: string; fields: string[] }
  | {
      op: 'update';
      resource: FieldResource;
      label: string;
      id: string;
      changes: FieldChange[];
    }
  /** Enables the connection for our applications; never disables it for anyone else. */
  | { op: 'enable'; resource: 'connectionClients'; label: string; clients: ('spa' | M2mResource)[] }
  | { op: 'deploy'; resource: 'action'; label: string; id: string | undefined; reason: string }
  | { op: 'bind'; resource: 'binding'; label: string; from: string[]; bindings: BindingRef[] };

export interface Plan {
  managementDomain: string;
  steps: Step[];
  /** Ids of what already exists (an absent id is created by a step). */
  existing: Partial<Record<FieldResource, string>>;
  notes: string[];
  /**
   * What provisioning will not apply a plan over (a connection on the SPA that lets people sign
   * themselves up): a dry run reports them, a run stops before changing anything.
   */
  refusals: string[];
}

export interface PlanOptions {
  /**
   * Action secret values cannot be read back, so a changed value is invisible to the plan; set
   * this to write them again (for example after changing the stage's claims namespace).
   */
  rewriteActionSecrets?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameArray(desired: unknown[], current: unknown): boolean {
  if (!Array.isArray(current) || current.length !== desired.length) return false;
  // Lists of URLs, grant types and scopes are sets to Auth0: order is not a change.
  const key = (value: unknown) => JSON.stringify(value);
  const left = desired.map(key).sort();
  const right = current.map(key).sort();
  return left.every((value, index) => value === right[index]);
}

/**
 * Whether the tenant's value satisfies the desired one. Objects are compared on the desired keys
 * only, because Auth0 answers with more (defaults, read-only fields) than was ever written.
 */
export function satisfies(desired: unknown, current: unknown): boolean {
  if (Array.isArray(desired)) return sameArray(desired, current);
  if (isRecord(desired)) {
    if (!isRecord(current)) return false;
    return Object.entries(desired).every(([key, value]) => satisfies(value, current[key]));
  }
  return desired === current;
}

export function diffSettings(desired: Settings, current: Record<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(desired)) {
    if (!satisfies(to, current[field])) changes.push({ field, from: current[field], to });
  }
  return changes;
}

function findOne<T>(items: T[], match: (item: T) => boolean, what: string): T | undefined {
  const found = items.filter(match);
  if (found.length > 1) {
    throw new Error(
      `The tenant has ${found.length} ${what}: rename or delete the extra ones, then run again`,
    );
  }
  return found[0];
}

function planClient(
  resource: 'spa' | M2mResource,
  desired: DesiredClient,
  found: Management.Client | undefined,
  plan: Plan,
): void {
  const label = `application "${desired.name}"`;
  if (!found?.client_id) {
    plan.steps.push({ op: 'create', resource, label, fields: ['name', ...Object.keys(desired.settings)] });
    return;
  }
  plan.existing[resource] = found.client_id;
  const changes = diffSettings({ name: desired.name, ...desired.settings }, found as Record<string, unknown>);
  if (changes.length > 0) plan.steps.push({ op: 'update', resource, label, id: found.client_id, changes });
}

export function planTenant(desired: DesiredTenant, tenant: TenantSnapshot, options: PlanOptions = {}): Plan {
  const plan: Plan = {
    managementDomain: desired.managementDomain,
    steps: [],
    existing: {},
    notes: [],
    refusals: [],
  };

  // The SPA: the client id the stage already names wins; otherwise the one with our name.
  const configured = tenant.clients.find((c) => c.client_id === desired.spa.configuredClientId);
  const spa =
    configured ??
    findOne(tenant.clients, (c) => c.name === desired.spa.name, `applications named "${desired.spa.name}"`);
  if (spa && !configured) {
    plan.notes.push(
      `The stage's auth0.spaClientId is "${desired.spa.configuredClientId}", but the SPA application is ${spa.client_id}: set auth0.spaClientId to it and deploy the stage again.`,
    );
  }
  planClient('spa', desired.spa, spa, plan);

  const api = findOne(
    tenant.resourceServers,
    (rs) => rs.identifier === desired.api.identifier,
    `APIs with identifier ${desired.api.identifier}`,
  );
  const apiLabel = `API ${desired.api.identifier}`;
  if (!api?.id) {
    plan.steps.push({
      op: 'create',
      resource: 'api',
      label: apiLabel,
      fields: ['identifier', ...Object.keys(desired.api.settings)],
    });
  } else {
    plan.existing.api = api.id;
    const changes = diffSettings(desired.api.settings, api as Record<string, unknown>);
    if (changes.length > 0)
      plan.steps.push({ op: 'update', resource: 'api', label: apiLabel, id: api.id, changes });
  }

  for (const wantedM2m of desired.m2m) planM2m(wantedM2m, desired.managementAudience, tenant, plan);
  if (tenant.clients.some((c) => c.name === desired.legacyM2mName)) {
    plan.notes.push(
      `The application "${desired.legacyM2mName}" (the former shared backend application, with every Management API scope) still exists: once each function's secret holds its own application's credentials, delete it in the Auth0 dashboard.`,
    );
  }

  const wanted = desired.action;
  const actionLabel = `Action "${wanted.name}"`;
  const action = findOne(tenant.actions, (a) => a.name === wanted.name, `Actions named "${wanted.name}"`);
  let actionChanged = false;
  if (!action?.id) {
    plan.steps.push({
      op: 'create',
      resource: 'action',
      label: actionLabel,
      fields: ['name', 'supported_triggers', 'runtime', 'code', 'secrets'],
    });
    plan.steps.push({
      op: 'deploy',
      resource: 'action',
      label: actionLabel,
      id: undefined,
      reason: 'new Action',
    });
  } else {
    plan.existing.action = action.id;
    const changes = diffSettings(
      { code: wanted.code, runtime: wanted.runtime },
      action as Record<string, unknown>,
    );
    const triggers = action.supported_triggers ?? [];
    if (!triggers.some((t) => t.id === wanted.trigger.id && t.version === wanted.trigger.version)) {
      changes.push({ field: 'supported_triggers', from: triggers, to: [wanted.trigger] });
    }
    const secretNames = (action.secrets ?? []).map((s) => s.name);
    const wantedNames = Object.keys(wanted.secrets);
    if (options.rewriteActionSecrets || !wantedNames.every((name) => secretNames.includes(name))) {
      // Values are write-only: the plan shows names, never values.
      changes.push({ field: 'secrets', from: secretNames, to: wantedNames });
    }
    if (changes.length > 0) {
      actionChanged = true;
      plan.steps.push({ op: 'update', resource: 'action', label: actionLabel, id: action.id, changes });
    }
    if (actionChanged || action.all_changes_deployed !== true) {
      plan.steps.push({
        op: 'deploy',
        resource: 'action',
        label: actionLabel,
        id: action.id,
        reason: actionChanged ? 'changed' : 'the latest changes are not deployed',
      });
    }
  }

  const bound = tenant.bindings.some(
    (b) => b.action?.name === wanted.name || (action?.id !== undefined && b.action?.id === action.id),
  );
  if (!bound) {
    // Updating the bindings replaces the whole list: keep every other Action where it is.
    const others: BindingRef[] = tenant.bindings.flatMap((b) =>
      b.action?.id
        ? [
            {
              ref: { type: 'action_id', value: b.action.id },
              display_name: b.display_name ?? b.action.name ?? b.action.id,
            },
          ]
        : [],
    );
    plan.steps.push({
      op: 'bind',
      resource: 'binding',
      label: `post-login trigger bindings`,
      from: tenant.bindings.map((b) => b.display_name ?? b.action?.name ?? '?'),
      bindings: [
        ...others,
        { ref: { type: 'action_name', value: wanted.name }, display_name: desired.binding.displayName },
      ],
    });
  }

  planConnection(desired, tenant, plan);
  refuseSignUpConnections(desired, tenant, plan);
  for (const role of desired.roles) planRole(role, tenant, plan);
  return plan;
}

function planRole(desired: DesiredTenant['roles'][number], tenant: TenantSnapshot, plan: Plan): void {
  const resource = `role:${desired.name}` as const;
  const label = `organization role "${desired.name}"`;
  const found = findOne(tenant.roles, (r) => r.name === desired.name, `roles named "${desired.name}"`);
  if (!found?.id) {
    plan.steps.push({ op: 'create', resource, label, fields: ['name', 'description'] });
    return;
  }
  plan.existing[resource] = found.id;
  const changes = diffSettings({ description: desired.description }, found as Record<string, unknown>);
  if (changes.length > 0) plan.steps.push({ op: 'update', resource, label, id: found.id, changes });
}

/**
 * Public sign-up is off on the database connection, but any other connection enabled for the SPA
 * (social, passwordless, enterprise) creates an account at a person's first login. Only those the
 * stage names in `auth0.extraConnections` may stay, and only with their own sign-up off.
 */
function refuseSignUpConnections(desired: DesiredTenant, tenant: TenantSnapshot, plan: Plan): void {
  for (const connection of tenant.spaConnections) {
    const name = connection.name ?? connection.id ?? '?';
    if (name === desired.connection.name) continue;
    const where = `the connection "${name}" (${connection.strategy ?? 'unknown strategy'}) is enabled for the SPA "${desired.spa.name}"`;
    if (!desired.extraConnections.includes(name)) {
      plan.refusals.push(
        `${where}, and the stage does not name it in auth0.extraConnections: anyone can create an account through it. Disable it for the application (Authentication > ${name} > Applications), or name it in the stage config and turn its sign-up off.`,
      );
    } else if ((connection.options as { disable_signup?: unknown } | undefined)?.disable_signup !== true) {
      plan.refusals.push(
        `${where} and named in auth0.extraConnections, but its sign-up is on (options.disable_signup is not true): turn sign-up off on it, or disable it for the application.`,
      );
    }
  }
}

function planM2m(
  desired: DesiredTenant['m2m'][number],
  audience: string,
  tenant: TenantSnapshot,
  plan: Plan,
): void {
  const resource = `m2m:${desired.key}` as const;
  const found = findOne(
    tenant.clients,
    (c) => c.name === desired.name,
    `applications named "${desired.name}"`,
  );
  planClient(resource, desired, found, plan);

  const label = `grant of "${desired.name}" on ${audience}`;
  const grantResource = `grant:${desired.key}` as const;
  const grant = found?.client_id
    ? tenant.grants.find((g) => g.client_id === found.client_id && g.audience === audience)
    : undefined;
  if (!grant?.id) {
    plan.steps.push({
      op: 'create',
      resource: grantResource,
      label,
      fields: ['client_id', 'audience', 'scope'],
    });
    return;
  }
  plan.existing[grantResource] = grant.id;
  if (!satisfies(desired.scope, grant.scope ?? [])) {
    plan.steps.push({
      op: 'update',
      resource: grantResource,
      label,
      id: grant.id,
      changes: [{ field: 'scope', from: grant.scope ?? [], to: desired.scope }],
    });
  }
}

function planConnection(desired: DesiredTenant, tenant: TenantSnapshot, plan: Plan): void {
  const wanted = desired.connection;
  const label = `database connection "${wanted.name}"`;
  const found = findOne(
    tenant.connections,
    (c) => c.name === wanted.name,
    `connections named "${wanted.name}"`,
  );
  if (found && found.strategy !== wanted.strategy) {
    throw new Error(`The connection "${wanted.name}" has strategy ${found.strategy}, not ${wanted.strategy}`);
  }
  if (!found?.id) {
    plan.steps.push({ op: 'create', resource: 'connection', label, fields: ['name', 'strategy', 'options'] });
  } else {
    plan.existing.connection = found.id;
    const current = (found.options ?? {}) as Record<string, unknown>;
    // One change per option, so the plan shows exactly which of the connection's options move.
    const changes = diffSettings(wanted.options, current).map((change) => ({
      ...change,
      field: `options.${change.field}`,
    }));
    if (changes.length > 0)
      plan.steps.push({ op: 'update', resource: 'connection', label, id: found.id, changes });
  }
  const clients = wanted.enabledClients.filter((key) => {
    const id = plan.existing[key];
    // A client created by this plan cannot be enabled yet.
    return !found?.id || id === undefined || !tenant.connectionClients.includes(id);
  });
  if (clients.length > 0) {
    plan.steps.push({
      op: 'enable',
      resource: 'connectionClients',
      label: `${label} for our applications`,
      clients,
    });
  }
}
