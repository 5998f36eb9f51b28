import type { Management, ManagementClient } from 'auth0';
import type { Auth0M2mKey } from '#lambdas/grants.ts';
import type { DesiredTenant } from './desired.ts';
import type { BindingRef, Plan, Step, TenantSnapshot } from './plan.ts';

// Reading the tenant and applying a plan through the `auth0` SDK's Management API client.

/** The client fields compared by the plan: asking for them by name keeps client secrets out. */
const CLIENT_FIELDS = [
  'client_id',
  'name',
  'description',
  'app_type',
  'token_endpoint_auth_method',
  'grant_types',
  'oidc_conformant',
  'is_first_party',
  'cross_origin_authentication',
  'callbacks',
  'allowed_logout_urls',
  'web_origins',
  'allowed_origins',
  'jwt_configuration',
  'refresh_token',
  'organization_usage',
  'organization_require_behavior',
].join(',');

async function all<T>(page: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of page) items.push(item);
  return items;
}

export async function readTenant(client: ManagementClient, desired: DesiredTenant): Promise<TenantSnapshot> {
  const [clients, resourceServers, grants, actions, bindings, connections, roles] = await Promise.all([
    client.clients
      .list({ fields: CLIENT_FIELDS, include_fields: true, per_page: 100, is_global: false })
      .then(all),
    client.resourceServers.list({ per_page: 100 }).then(all),
    client.clientGrants.list({ audience: desired.managementAudience, take: 100 }).then(all),
    client.actions.list({ triggerId: 'post-login', per_page: 100 }).then(all),
    client.actions.triggers.bindings.list('post-login', { per_page: 100 }).then(all),
    client.connections.list({ name: desired.connection.name, take: 50 }).then(all),
    client.roles.list({ per_page: 100 }).then(all),
  ]);
  const connection = connections.find((c) => c.name === desired.connection.name);
  const connectionClients = connection?.id
    ? (await all(await client.connections.clients.get(connection.id, { take: 100 }))).map((c) => c.client_id)
    : [];
  // Every connection the SPA signs people in through: any of them with sign-up on makes accounts.
  const spaId = spaClientOf(clients, desired);
  const spaConnections = spaId ? await all(await client.clients.connections.get(spaId, { take: 100 })) : [];
  return {
    clients,
    resourceServers,
    grants,
    actions,
    bindings,
    connections,
    connectionClients,
    spaConnections,
    roles,
  };
}

/** The SPA the plan will manage: the stage's configured client id, else the one with our name. */
function spaClientOf(clients: Management.Client[], desired: DesiredTenant): string | undefined {
  return (
    clients.find((c) => c.client_id === desired.spa.configuredClientId)?.client_id ??
    clients.find((c) => c.name === desired.spa.name)?.client_id
  );
}

export interface ApplyOptions {
  log?: (line: string) => void;
  /** Waits between polls of an Action's build status. */
  sleep?: (ms: number) => Promise<void>;
  /** Polls before giving up on a build or a deployment. */
  maxPolls?: number;
  /** Told of each step once it is applied (what the admin audit trail's entry counts). */
  onApplied?: (step: Step) => void;
}

export interface ApplyResult {
  spaClientId: string;
  /** Each function's application; `created`: made now, so its secret has to be stored. */
  m2m: Record<Auth0M2mKey, { clientId: string; created: boolean }>;
}

/** `m2m:<key>` / `grant:<key>` -> the kind of resource and the credentials key. */
function split(resource: string): { kind: string; key: Auth0M2mKey | undefined } {
  const [kind = resource, key] = resource.split(':');
  return { kind, key: key as Auth0M2mKey | undefined };
}

function pick(settings: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in settings).map((f) => [f, settings[f]]));
}

function required(id: string | undefined, what: string): string {
  if (!id) throw new Error(`Auth0 returned no id for ${what}`);
  return id;
}

async function waitFor(
  client: ManagementClient,
  actionId: string,
  done: (action: Management.GetActionResponseContent) => boolean,
  what: string,
  options: ApplyOptions,
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxPolls = options.maxPolls ?? 60;
  for (let poll = 0; poll < maxPolls; poll += 1) {
    const action = await client.actions.get(actionId);
    if (action.status === 'failed')
      throw new Error(`The Action ${actionId} failed to build: see Actions > Library`);
    if (done(action)) return;
    await sleep(1000);
  }
  throw new Error(`The Action ${actionId} did not finish ${what} in time; run the provisioning again`);
}

/** Carries out the plan's steps in order. Client secrets in Auth0's answers are never logged. */
export async function applyPlan(
  client: ManagementClient,
  desired: DesiredTenant,
  plan: Plan,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const log = options.log ?? (() => undefined);
  const ids: Partial<Record<string, string>> = { ...plan.existing };
  const created = new Set<Auth0M2mKey>();
  const m2mOf = (key: Auth0M2mKey | undefined) => {
    const found = desired.m2m.find((m) => m.key === key);
    if (!found) throw new Error(`No desired M2M application ${key}`);
    return found;
  };

  for (const step of plan.steps) {
    const { kind, key } = split(step.resource);
    switch (kind) {
      case 'spa':
      case 'm2m': {
        const wanted = kind === 'spa' ? desired.spa : m2mOf(key);
        const body: Record<string, unknown> = { name: wanted.name, ...wanted.settings };
        if (step.op === 'create') {
          const made = await client.clients.create(body as unknown as Management.CreateClientRequestContent);
          ids[step.resource] = required(made.client_id, step.label);
          if (key) created.add(key);
        } else if (step.op === 'update') {
          await client.clients.update(
            step.id,
            pick(
              body,
              step.changes.map((c) => c.field),
            ),
          );
        }
        break;
      }
      case 'api': {
        const body = { identifier: desired.api.identifier, ...desired.api.settings };
        if (step.op === 'create') {
          const created = await client.resourceServers.create(
            body as Management.CreateResourceServerRequestContent,
          );
          ids.api = required(created.id, step.label);
        } else if (step.op === 'update') {
          await client.resourceServers.update(
            step.id,
            pick(
              body,
              step.changes.map((c) => c.field),
            ),
          );
        }
        break;
      }
      case 'grant': {
        const wanted = m2mOf(key);
        if (step.op === 'create') {
          const made = await client.clientGrants.create({
            client_id: required(ids[`m2m:${wanted.key}`], `the ${wanted.key} application`),
            audience: desired.managementAudience,
            scope: wanted.scope,
          });
          ids[step.resource] = required(made.id, step.label);
        } else if (step.op === 'update') {
          await client.clientGrants.update(step.id, { scope: wanted.scope });
        }
        break;
      }
      case 'action': {
        const wanted = desired.action;
        const secrets = Object.entries(wanted.secrets).map(([name, value]) => ({ name, value }));
        if (step.op === 'create') {
          const created = await client.actions.create({
            name: wanted.name,
            supported_triggers: [wanted.trigger],
            runtime: wanted.runtime,
            code: wanted.code,
            secrets,
          });
          ids.action = required(created.id, step.label);
        } else if (step.op === 'update') {
          const fields = new Set(step.changes.map((c) => c.field));
          await client.actions.update(step.id, {
            ...(fields.has('code') ? { code: wanted.code } : {}),
            ...(fields.has('runtime') ? { runtime: wanted.runtime } : {}),
            ...(fields.has('supported_triggers') ? { supported_triggers: [wanted.trigger] } : {}),
            ...(fields.has('secrets') ? { secrets } : {}),
          });
        } else if (step.op === 'deploy') {
          const id = required(step.id ?? ids.action, step.label);
          // A new or edited Action builds asynchronously; deploying before it is built fails.
          await waitFor(client, id, (a) => a.status === 'built', 'building', options);
          await client.actions.deploy(id);
          await waitFor(client, id, (a) => a.all_changes_deployed === true, 'deploying', options);
        }
        break;
      }
      case 'binding': {
        if (step.op !== 'bind') break;
        await client.actions.triggers.bindings.updateMany('post-login', {
          bindings: step.bindings satisfies BindingRef[],
        });
        break;
      }
      case 'connection': {
        const wanted = desired.connection;
        if (step.op === 'create') {
          const created = await client.connections.create({
            name: wanted.name,
            strategy: wanted.strategy,
            options: { ...wanted.options },
          });
          ids.connection = required(created.id, step.label);
        } else if (step.op === 'update') {
          // A PATCH replaces the whole `options` object: read the freshest copy just before writing
          // and change only our keys, so password policy, MFA and the rest stay as they are.
          const current = await client.connections.get(step.id);
          await client.connections.update(step.id, {
            options: { ...(current.options ?? {}), ...wanted.options } as Management.UpdateConnectionOptions,
          });
        }
        break;
      }
      case 'role': {
        const wanted = desired.roles.find((r) => `role:${r.name}` === step.resource);
        if (!wanted) throw new Error(`No desired role for ${step.resource}`);
        if (step.op === 'create') {
          const made = await client.roles.create({ name: wanted.name, description: wanted.description });
          ids[step.resource] = required(made.id, step.label);
        } else if (step.op === 'update') {
          await client.roles.update(step.id, { description: wanted.description });
        }
        break;
      }
      case 'connectionClients': {
        if (step.op !== 'enable') break;
        const connectionId = required(ids.connection, 'the database connection');
        await client.connections.clients.update(
          connectionId,
          step.clients.map((key) => ({
            client_id: required(ids[key], `the ${key} application`),
            status: true,
          })),
        );
        break;
      }
    }
    log(`  done: ${step.op} ${step.label}`);
    options.onApplied?.(step);
  }

  return {
    spaClientId: required(ids.spa, 'the SPA application'),
    m2m: Object.fromEntries(
      desired.m2m.map((m) => [
        m.key,
        { clientId: required(ids[`m2m:${m.key}`], `the ${m.key} application`), created: created.has(m.key) },
      ]),
    ) as ApplyResult['m2m'],
  };
}
