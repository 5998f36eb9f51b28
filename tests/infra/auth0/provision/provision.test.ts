import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refreshTokenLifetimes, sessionMaximumSeconds } from '#contracts/session-lifetimes.ts';
import {
  type DesiredTenant,
  desiredTenant,
  legacyBackendName,
  POST_LOGIN_ACTION_FILE,
} from '#infra/auth0/provision/desired.ts';
import { formatPlan } from '#infra/auth0/provision/format.ts';
import type { Step } from '#infra/auth0/provision/plan.ts';
import {
  createProvisioningClient,
  nextSteps,
  ProvisioningTrailRequiredError,
  provisionTenant,
  secretLogicalIdPrefix,
} from '#infra/auth0/provision/provision.ts';
import { provisioningCalls, provisioningScopes } from '#infra/auth0/provision/scopes.ts';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';
import { DynamoDbAdminAuditLog } from '#lambdas/adapters/dynamodb-admin-audit-log.ts';
import { verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import { auth0M2mKeys, auth0M2mScopes } from '#lambdas/grants.ts';
import { tables as tableDefs } from '#lambdas/tables.ts';
import { createTableInput, localCredentials, type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { sessionLimits } from '#web/features/session/index.ts';

// Provisioning against an in-memory Auth0 tenant: the real `auth0` SDK talks to it through its
// `fetch` option, so every request the script would send to the Management API is seen here. Each
// apply is recorded in an admin audit trail on DynamoDB Local (ADR 0078), a fresh table per test.

const DOMAIN = 'platform-test.eu.auth0.com';

interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

type Json = Record<string, unknown>;

const id = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

/** The subset of the Management API that provisioning uses, with Auth0's answer shapes. */
class FakeTenant {
  readonly clients: Json[] = [];
  readonly resourceServers: Json[] = [];
  readonly grants: Json[] = [];
  readonly actions: Json[] = [];
  readonly roles: Json[] = [];
  bindings: { id: string; display_name: string; actionId: string }[] = [];
  /** Every tenant starts with Auth0's default database connection, sign-up open, no app enabled. */
  readonly connections: Json[] = [
    {
      id: 'con_default',
      name: 'Username-Password-Authentication',
      strategy: 'auth0',
      options: {
        mfa: { active: true, return_enroll_settings: true },
        passwordPolicy: 'good',
        brute_force_protection: true,
        strategy_version: 2,
        disable_signup: false,
      },
    },
  ];
  readonly connectionClients = new Map<string, Set<string>>([['con_default', new Set(['client_other_app'])]]);
  readonly requests: RecordedRequest[] = [];
  /** What the provisioning application was authorized for (docs/deploying.md 5.1 grants these). */
  grantedScopes: string[] = [...provisioningScopes];
  /** A write the tenant refuses (`POST /api/v2/actions/actions`), answered 400. */
  refuse: string | undefined;

  /** Requests that would change the tenant. */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' && r.path !== '/oauth/token');
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const isJson = request.headers.get('content-type')?.includes('json') ?? false;
    const body = text && isJson ? (JSON.parse(text) as Json) : undefined;
    if (Array.isArray(body)) {
      this.requests.push({ method: request.method, path: url.pathname, body });
      return this.#connectionClientsPatch(url, body as Json[]);
    }
    const method = request.method;
    this.requests.push({ method, path: url.pathname, body });
    if (this.refuse === `${method} ${url.pathname}`) {
      return this.#answer(400, { statusCode: 400, error: 'Bad Request', message: 'Refused by the test' });
    }
    if (url.host !== DOMAIN) return this.#answer(404, { message: `unexpected host ${url.host}` });
    try {
      return this.#route(method, url, body ?? {});
    } catch (error) {
      return this.#answer(400, { statusCode: 400, error: 'Bad Request', message: (error as Error).message });
    }
  };

  #answer(status: number, body: unknown): Response {
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }

  #page<T>(items: T[], url: URL): T[] {
    const perPage = Number(url.searchParams.get('per_page') ?? 50);
    const page = Number(url.searchParams.get('page') ?? 0);
    return items.slice(page * perPage, (page + 1) * perPage);
  }

  #find(list: Json[], key: string, value: string | undefined): Json {
    const item = list.find((i) => i[key] === value);
    if (!item) throw new Error(`no ${key} ${value}`);
    return item;
  }

  #action(item: Json): Json {
    const { secretValues: _values, ...visible } = item;
    return structuredClone(visible);
  }

  #connectionClientsPatch(url: URL, body: Json[]): Response {
    const [, , , id, sub] = url.pathname.split('/').filter(Boolean);
    const enabled = this.connectionClients.get(String(id));
    if (!enabled || sub !== 'clients') return this.#answer(404, { statusCode: 404, error: 'Not Found' });
    for (const item of body) {
      this.#find(this.clients, 'client_id', item.client_id as string);
      if (item.status === true) enabled.add(String(item.client_id));
      else enabled.delete(String(item.client_id));
    }
    return new Response(null, { status: 204 });
  }

  #route(method: string, url: URL, body: Json): Response {
    const parts = url.pathname.split('/').filter(Boolean);
    const path = url.pathname;
    if (method === 'POST' && path === '/oauth/token') {
      return this.#answer(200, {
        access_token: 'management-token',
        scope: this.grantedScopes.join(' '),
        expires_in: 86400,
        token_type: 'Bearer',
      });
    }
    const [, , resource, second, third, fourth] = parts;
    if (resource === 'clients') {
      if (method === 'GET' && !second) {
        const fields = url.searchParams.get('fields')?.split(',');
        const shown = this.clients.map((c) =>
          fields ? Object.fromEntries(Object.entries(c).filter(([k]) => fields.includes(k))) : c,
        );
        return this.#answer(200, { clients: this.#page(shown, url), total: shown.length });
      }
      if (method === 'POST') {
        const client: Json = {
          // Auth0 fills defaults the provisioning never asked for.
          is_token_endpoint_ip_header_trusted: false,
          ...body,
          jwt_configuration: { secret_encoded: false, ...(body.jwt_configuration as Json | undefined) },
          client_id: id('client_'),
          client_secret: `secret-${randomBytes(16).toString('hex')}`,
        };
        this.clients.push(client);
        return this.#answer(201, client);
      }
      if (method === 'GET' && second && third === 'connections') {
        // Auth0's checkpoint-paginated answer: the connections enabled for the application.
        this.#find(this.clients, 'client_id', second);
        const enabled = this.connections.filter((c) => this.connectionClients.get(String(c.id))?.has(second));
        return this.#answer(200, { connections: enabled.map((c) => structuredClone(c)) });
      }
      if (method === 'PATCH' && second) {
        const client = this.#find(this.clients, 'client_id', second);
        Object.assign(client, body);
        return this.#answer(200, client);
      }
    }
    if (resource === 'roles') {
      if (method === 'GET') {
        const page = this.#page(this.roles, url);
        // Offset pagination: with include_totals an object, else the bare array (Auth0's two shapes).
        return this.#answer(
          200,
          url.searchParams.get('include_totals') === 'true'
            ? { roles: page, start: 0, limit: page.length, total: this.roles.length }
            : page,
        );
      }
      if (method === 'POST') {
        if (this.roles.some((r) => r.name === body.name))
          return this.#answer(409, { statusCode: 409, error: 'Conflict', message: 'Role already exists' });
        const role = { ...body, id: id('rol_') };
        this.roles.push(role);
        return this.#answer(200, role);
      }
      if (method === 'PATCH' && second) {
        const role = this.#find(this.roles, 'id', second);
        Object.assign(role, body);
        return this.#answer(200, role);
      }
    }
    if (resource === 'resource-servers') {
      if (method === 'GET')
        return this.#answer(200, { resource_servers: this.#page(this.resourceServers, url) });
      if (method === 'POST') {
        const server = { token_dialect: 'access_token', ...body, id: id('rs_') };
        this.resourceServers.push(server);
        return this.#answer(201, server);
      }
      if (method === 'PATCH' && second) {
        const server = this.#find(this.resourceServers, 'id', second);
        Object.assign(server, body);
        return this.#answer(200, server);
      }
    }
    if (resource === 'client-grants') {
      if (method === 'GET') {
        const audience = url.searchParams.get('audience');
        return this.#answer(200, {
          client_grants: this.grants.filter((g) => !audience || g.audience === audience),
        });
      }
      if (method === 'POST') {
        this.#find(this.clients, 'client_id', body.client_id as string);
        const grant = { ...body, id: id('cgr_') };
        this.grants.push(grant);
        return this.#answer(201, grant);
      }
      if (method === 'PATCH' && second) {
        const grant = this.#find(this.grants, 'id', second);
        Object.assign(grant, body);
        return this.#answer(200, grant);
      }
    }
    if (resource === 'connections') {
      if (method === 'GET' && !second) {
        const name = url.searchParams.get('name');
        return this.#answer(200, { connections: this.connections.filter((c) => !name || c.name === name) });
      }
      if (method === 'GET' && second && third === 'clients') {
        const enabled = this.connectionClients.get(second);
        if (!enabled) return this.#answer(404, { statusCode: 404, error: 'Not Found' });
        return this.#answer(200, { clients: [...enabled].map((client_id) => ({ client_id })) });
      }
      if (method === 'GET' && second) return this.#answer(200, this.#find(this.connections, 'id', second));
      if (method === 'POST') {
        const connection = { ...body, id: id('con_') };
        this.connections.push(connection);
        this.connectionClients.set(String(connection.id), new Set());
        return this.#answer(201, connection);
      }
      if (method === 'PATCH' && second) {
        // Like Auth0: `options` in a PATCH replaces the whole options object.
        const connection = this.#find(this.connections, 'id', second);
        Object.assign(connection, body);
        return this.#answer(200, connection);
      }
    }
    if (resource === 'actions' && second === 'actions') {
      if (method === 'GET' && !third)
        return this.#answer(200, {
          actions: this.#page(
            this.actions.map((a) => this.#action(a)),
            url,
          ),
        });
      if (method === 'GET' && third)
        return this.#answer(200, this.#action(this.#find(this.actions, 'id', third)));
      if (method === 'POST' && !third) {
        const action: Json = {
          id: id('act_'),
          name: body.name,
          supported_triggers: body.supported_triggers,
          code: body.code,
          runtime: body.runtime,
          secrets: ((body.secrets as Json[]) ?? []).map((s) => ({ name: s.name, updated_at: 'now' })),
          secretValues: Object.fromEntries(((body.secrets as Json[]) ?? []).map((s) => [s.name, s.value])),
          status: 'built',
          all_changes_deployed: false,
        };
        this.actions.push(action);
        return this.#answer(201, this.#action(action));
      }
      if (method === 'PATCH' && third) {
        const action = this.#find(this.actions, 'id', third);
        const { secrets, ...rest } = body;
        Object.assign(action, rest, { all_changes_deployed: false, status: 'built' });
        if (Array.isArray(secrets)) {
          action.secrets = (secrets as Json[]).map((s) => ({ name: s.name, updated_at: 'now' }));
          action.secretValues = Object.fromEntries((secrets as Json[]).map((s) => [s.name, s.value]));
        }
        return this.#answer(200, this.#action(action));
      }
      if (method === 'POST' && third && fourth === 'deploy') {
        const action = this.#find(this.actions, 'id', third);
        if (action.status !== 'built') throw new Error('action is not built');
        Object.assign(action, {
          all_changes_deployed: true,
          deployed_version: { code: action.code, deployed: true },
        });
        return this.#answer(200, { id: id('ver_'), deployed: true });
      }
    }
    if (resource === 'actions' && second === 'triggers' && third === 'post-login' && fourth === 'bindings') {
      const shown = () =>
        this.bindings.map((b) => {
          const action = this.#find(this.actions, 'id', b.actionId);
          return {
            id: b.id,
            trigger_id: 'post-login',
            display_name: b.display_name,
            action: { id: action.id, name: action.name },
          };
        });
      if (method === 'GET') return this.#answer(200, { bindings: this.#page(shown(), url) });
      if (method === 'PATCH') {
        // Like Auth0: the list replaces every binding; each Action must have been deployed.
        this.bindings = ((body.bindings as Json[]) ?? []).map((b) => {
          const ref = b.ref as { type: string; value: string };
          const action = this.#find(this.actions, ref.type === 'action_id' ? 'id' : 'name', ref.value);
          if (!action.deployed_version) throw new Error(`action ${ref.value} is not deployed`);
          return { id: id('bnd_'), display_name: String(b.display_name), actionId: String(action.id) };
        });
        return this.#answer(200, { bindings: shown() });
      }
    }
    return this.#answer(404, { statusCode: 404, error: 'Not Found', message: `${method} ${path}` });
  }
}

const config = parseStageConfig({ ...exampleStages.dev, auth0: { ...exampleStages.dev?.auth0 } });
const desired = () => desiredTenant(config, { managementDomain: DOMAIN });

let tenant: FakeTenant;
let logs: string[];
let dynamodb: RunningDynamoDb;
let documents: DynamoDBDocumentClient;
let trail: DynamoDbAdminAuditLog;
let tableCount = 0;

const OPERATOR = 'arn:aws:sts::123456789012:assumed-role/PlatformOperators/jane';
const COMMAND = 'npm run auth0:provision --stage dev';
const trailOf = (log: DynamoDbAdminAuditLog) => ({ log, operatorId: OPERATOR, command: COMMAND });

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'provision-' });
  documents = localDocumentClient(dynamodb.endpoint);
}, 60_000);

afterAll(async () => {
  documents?.destroy();
  await dynamodb?.close();
});

async function provision(
  options: { dryRun?: boolean; target?: DesiredTenant; rewriteActionSecrets?: boolean } = {},
) {
  const client = await createProvisioningClient({
    domain: DOMAIN,
    clientId: 'prov',
    clientSecret: 'prov-secret',
    fetch: tenant.fetch,
  });
  return provisionTenant(client, options.target ?? desired(), {
    stage: config.stage,
    dryRun: options.dryRun ?? false,
    rewriteActionSecrets: options.rewriteActionSecrets ?? false,
    log: (line) => logs.push(line),
    sleep: async () => undefined,
    trail: trailOf(trail),
  });
}

const summary = (steps: Step[]) =>
  steps.map(
    (s) => `${s.op} ${s.resource}${s.op === 'update' ? ` ${s.changes.map((c) => c.field).join(',')}` : ''}`,
  );

beforeEach(async () => {
  tenant = new FakeTenant();
  logs = [];
  const name = `trail-${++tableCount}`;
  const admin = new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: 'eu-central-1',
    credentials: localCredentials,
  });
  await admin.send(new CreateTableCommand(createTableInput(tableDefs.adminAuditLog, name)));
  admin.destroy();
  trail = new DynamoDbAdminAuditLog(documents, name);
});

describe('Auth0 provisioning plan', () => {
  it('plans every piece for an empty tenant, and a dry run writes nothing', async () => {
    const { plan, result } = await provision({ dryRun: true });
    expect(summary(plan.steps)).toEqual([
      'create spa',
      'create api',
      ...auth0M2mKeys.flatMap((key) => [`create m2m:${key}`, `create grant:${key}`]),
      'create action',
      'deploy action',
      'bind binding',
      'update connection options.disable_signup',
      'enable connectionClients',
      'create role:org_admin',
      'create role:org_member',
    ]);
    expect(result).toBeUndefined();
    expect(tenant.writes()).toEqual([]);
    expect(logs.join('\n')).toContain('Dry run: nothing was changed.');
  });

  it("creates the organization roles once, puts back a changed description, and leaves the tenant's other roles alone", async () => {
    tenant.roles.push({ id: 'rol_other', name: 'billing_viewer', description: 'Someone else’s role' });
    await provision();
    expect(tenant.roles.map((role) => role.name)).toEqual(['billing_viewer', 'org_admin', 'org_member']);
    const admin = tenant.roles.find((role) => role.name === 'org_admin') as Json;
    admin.description = 'edited in the dashboard';
    const { plan } = await provision();
    expect(summary(plan.steps)).toEqual(['update role:org_admin description']);
    expect(admin.description).toBe(
      "Administers the organization's workspace on the platform: invites, roles, removals",
    );
    expect(tenant.roles.find((role) => role.id === 'rol_other')).toEqual({
      id: 'rol_other',
      name: 'billing_viewer',
      description: 'Someone else’s role',
    });
    expect(tenant.writes().filter((w) => w.path.startsWith('/api/v2/roles'))).toHaveLength(3);
  });

  it('creates the tenant as the stage needs it', async () => {
    const { result } = await provision();
    const origin = 'https://d111111abcdef8.cloudfront.net';

    const spa = tenant.clients.find((c) => c.client_id === result?.spaClientId);
    expect(spa).toMatchObject({
      app_type: 'spa',
      token_endpoint_auth_method: 'none',
      oidc_conformant: true,
      grant_types: ['authorization_code', 'refresh_token'],
      callbacks: [`${origin}/auth/callback`],
      allowed_logout_urls: [origin],
      web_origins: [origin],
      allowed_origins: [origin],
      // The session rules' limits, enforced by Auth0 (ADR 0074): no token outlives the session.
      refresh_token: {
        rotation_type: 'rotating',
        expiration_type: 'expiring',
        leeway: 0,
        token_lifetime: 3600,
        infinite_token_lifetime: false,
        idle_token_lifetime: 420,
        infinite_idle_token_lifetime: false,
      },
      // Members sign in through their organization; admins without one (issue 27).
      organization_usage: 'allow',
      organization_require_behavior: 'no_prompt',
    });
    expect(tenant.roles.map((role) => role.name)).toEqual(['org_admin', 'org_member']);

    expect(tenant.resourceServers).toEqual([
      expect.objectContaining({
        identifier: config.auth0.audience,
        signing_alg: 'RS256',
        allow_offline_access: true,
        skip_consent_for_verifiable_first_party_clients: true,
      }),
    ]);

    // One application per function's credentials, each granted exactly its scopes.
    expect(tenant.grants).toHaveLength(auth0M2mKeys.length);
    for (const key of auth0M2mKeys) {
      const clientId = result?.m2m[key].clientId;
      const m2m = tenant.clients.find((c) => c.client_id === clientId);
      expect(m2m).toMatchObject({ app_type: 'non_interactive', grant_types: ['client_credentials'] });
      const grants = tenant.grants.filter((g) => g.client_id === clientId);
      expect(grants).toEqual([expect.objectContaining({ audience: `https://${DOMAIN}/api/v2/` })]);
      expect([...((grants[0]?.scope as string[] | undefined) ?? [])].sort()).toEqual(
        [...auth0M2mScopes[key]].sort(),
      );
    }
    const readUsers = tenant.grants.find((g) => g.client_id === result?.m2m.auth0ReadUsers.clientId);
    expect(readUsers?.scope).toEqual(['read:users']);
    // The team page's application (ADR 0084): its invitations, member roles and removals, nothing of users.
    const team = tenant.grants.find((g) => g.client_id === result?.m2m.auth0OrganizationTeam.clientId);
    expect([...((team?.scope as string[] | undefined) ?? [])].sort()).toEqual([
      'create:organization_invitations',
      'create:organization_member_roles',
      'delete:organization_invitations',
      'delete:organization_member_roles',
      'delete:organization_members',
      'read:roles',
    ]);

    const [action] = tenant.actions;
    expect(action).toMatchObject({
      code: readFileSync(POST_LOGIN_ACTION_FILE, 'utf8'),
      supported_triggers: [{ id: 'post-login', version: 'v3' }],
      all_changes_deployed: true,
      secretValues: { CLAIMS_NAMESPACE: config.auth0.claimsNamespace, AUDIENCE: config.auth0.audience },
    });
    expect(tenant.bindings).toEqual([expect.objectContaining({ actionId: action?.id })]);
  });

  it('finds nothing to do on a tenant it already provisioned, and sends no write', async () => {
    await provision();
    tenant.requests.length = 0;
    logs = [];

    const { plan } = await provision();
    expect(plan.steps).toEqual([]);
    expect(tenant.writes()).toEqual([]);
    expect(logs.join('\n')).toContain('No changes');
  });

  it('repairs exactly the drift: a changed callback, a missing scope and an edited Action', async () => {
    const { result } = await provision();
    const spa = tenant.clients.find((c) => c.client_id === result?.spaClientId);
    if (!spa) throw new Error('no SPA');
    spa.callbacks = ['https://evil.example/auth/callback'];
    const grant = tenant.grants.find((g) => g.client_id === result?.m2m.auth0Erasure.clientId);
    if (!grant) throw new Error('no grant');
    grant.scope = (grant.scope as string[]).filter((s) => s !== 'delete:users');
    const action = tenant.actions[0];
    if (!action) throw new Error('no action');
    Object.assign(action, {
      code: 'exports.onExecutePostLogin = async () => {};',
      all_changes_deployed: true,
    });
    tenant.requests.length = 0;

    const { plan: drift } = await provision({ dryRun: true });
    expect(summary(drift.steps)).toEqual([
      'update spa callbacks',
      'update grant:auth0Erasure scope',
      'update action code',
      'deploy action',
    ]);
    const printed = formatPlan(drift, config.stage);
    expect(printed).toContain(
      'callbacks: ["https://evil.example/auth/callback"] -> ["https://d111111abcdef8.cloudfront.net/auth/callback"]',
    );
    expect(printed).toContain('scope: +delete:users');

    await provision();
    expect(tenant.writes().map((w) => `${w.method} ${w.path}`)).toEqual([
      `PATCH /api/v2/clients/${spa.client_id}`,
      `PATCH /api/v2/client-grants/${grant.id}`,
      `PATCH /api/v2/actions/actions/${action.id}`,
      `POST /api/v2/actions/actions/${action.id}/deploy`,
    ]);
    expect(tenant.writes()[0]?.body).toEqual({
      callbacks: ['https://d111111abcdef8.cloudfront.net/auth/callback'],
    });
    expect(tenant.writes()[2]?.body).toEqual({ code: readFileSync(POST_LOGIN_ACTION_FILE, 'utf8') });

    tenant.requests.length = 0;
    expect((await provision()).plan.steps).toEqual([]);
  });

  it("shortens the SPA's refresh tokens provisioned with the former 30-day lifetimes to the session's limits", async () => {
    const { result } = await provision();
    const spa = tenant.clients.find((c) => c.client_id === result?.spaClientId);
    if (!spa) throw new Error('no SPA');
    spa.refresh_token = {
      ...(spa.refresh_token as Json),
      token_lifetime: 30 * 24 * 3600,
      idle_token_lifetime: 7 * 24 * 3600,
    };
    tenant.requests.length = 0;

    const { plan } = await provision();
    expect(summary(plan.steps)).toEqual(['update spa refresh_token']);
    expect(tenant.writes()[0]?.body).toEqual({
      refresh_token: {
        rotation_type: 'rotating',
        expiration_type: 'expiring',
        leeway: 0,
        token_lifetime: sessionMaximumSeconds,
        infinite_token_lifetime: false,
        idle_token_lifetime: refreshTokenLifetimes.idleSeconds,
        infinite_idle_token_lifetime: false,
      },
    });
    expect(sessionLimits.maxDurationMs).toBe(sessionMaximumSeconds * 1000);
    // Unused for longer than a live session can leave it between two refreshes, and no longer.
    const longestGapMs =
      sessionLimits.refreshEveryMs + sessionLimits.refreshGraceMs + sessionLimits.maxCheckDelayMs;
    expect(refreshTokenLifetimes.idleSeconds * 1000).toBeGreaterThanOrEqual(longestGapMs);
    expect(refreshTokenLifetimes.idleSeconds * 1000).toBeLessThanOrEqual(
      sessionLimits.inactivityMs + 2 * 60_000,
    );
  });

  it("takes away a scope an application's function does not use", async () => {
    const { result } = await provision();
    const grant = tenant.grants.find((g) => g.client_id === result?.m2m.auth0ReadUsers.clientId);
    if (!grant) throw new Error('no grant');
    grant.scope = ['read:users', 'create:users', 'delete:users'];

    const { plan } = await provision();
    expect(summary(plan.steps)).toEqual(['update grant:auth0ReadUsers scope']);
    expect(grant.scope).toEqual(['read:users']);
  });

  it('creates the missing applications next to the former shared one, and says to delete that one', async () => {
    tenant.clients.push({
      client_id: 'client_legacy_backend',
      name: legacyBackendName(config.stage),
      app_type: 'non_interactive',
      grant_types: ['client_credentials'],
    });
    const { plan } = await provision();
    expect(plan.notes.join('\n')).toContain(`"${legacyBackendName(config.stage)}"`);
    expect(tenant.clients.find((c) => c.client_id === 'client_legacy_backend')).toBeDefined();
    expect(tenant.writes().some((w) => w.path.includes('client_legacy_backend'))).toBe(false);
  });

  it('binds the Action after the Actions another team already bound, and keeps them', async () => {
    tenant.actions.push({
      id: 'act_other',
      name: 'fraud-check',
      code: 'exports.onExecutePostLogin = async () => {};',
      supported_triggers: [{ id: 'post-login', version: 'v3' }],
      secrets: [],
      status: 'built',
      all_changes_deployed: true,
      deployed_version: { deployed: true },
    });
    tenant.bindings = [{ id: 'bnd_other', display_name: 'fraud-check', actionId: 'act_other' }];

    await provision();
    expect(tenant.bindings.map((b) => b.display_name)).toEqual(['fraud-check', 'platform-dev-post-login']);
  });

  it('never prints a client secret', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    logs.push(nextSteps(desired(), result, config));
    const output = logs.join('\n');
    for (const client of tenant.clients) expect(output).not.toContain(String(client.client_secret));
    for (const key of auth0M2mKeys) {
      expect(output).toContain(result.m2m[key].clientId);
      // By the name the stack, preflight and docs/deploying.md section 4 give it.
      expect(output).toContain(`the data stack's secret ${secretLogicalIdPrefix(key)}...`);
    }
  });

  it("prints each secret's put-secret-value with the stage's region, as every AWS command in the docs has", async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    const commands = nextSteps(desired(), result, { ...config, region: 'eu-west-3' })
      .split('\n')
      .filter((line) => line.includes('aws secretsmanager put-secret-value'));
    expect(commands).toHaveLength(auth0M2mKeys.length);
    for (const command of commands) expect(command).toContain('put-secret-value --region eu-west-3 ');
  });

  it('tells the operator to put the SPA client id into the stage config when it differs', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    expect(nextSteps(desired(), result, config)).toContain(
      `Set auth0.spaClientId to "${result.spaClientId}"`,
    );
    // Built for the stage's URL before the deploy: without it the site stack refuses to synthesize.
    expect(nextSteps(desired(), result, config)).toContain(
      `then build and deploy: SITE_URL=${config.siteUrl} npm run build && npx cdk deploy --all -c stage=${config.stage}`,
    );

    const configured = desiredTenant(
      parseStageConfig({
        ...exampleStages.dev,
        auth0: { ...exampleStages.dev?.auth0, spaClientId: result.spaClientId },
      }),
      { managementDomain: DOMAIN },
    );
    const again = await provision({ target: configured });
    expect(again.plan.steps).toEqual([]);
    expect(again.plan.notes).toEqual([]);
  });

  it('writes the Action secret again only when asked, since its value cannot be read back', async () => {
    await provision();
    const client = await createProvisioningClient({
      domain: DOMAIN,
      clientId: 'prov',
      clientSecret: 'x',
      fetch: tenant.fetch,
    });
    const changed = desiredTenant(
      parseStageConfig({
        ...exampleStages.dev,
        auth0: { ...exampleStages.dev?.auth0, claimsNamespace: 'https://claims.example/' },
      }),
      { managementDomain: DOMAIN },
    );
    const { plan } = await provisionTenant(client, changed, {
      stage: 'dev',
      rewriteActionSecrets: true,
      sleep: async () => undefined,
      log: (line) => logs.push(line),
      trail: trailOf(trail),
    });
    expect(summary(plan.steps)).toEqual(['update action secrets', 'deploy action']);
    expect(tenant.actions[0]?.secretValues).toEqual({
      CLAIMS_NAMESPACE: 'https://claims.example/',
      AUDIENCE: 'https://api.platform.example',
    });
    expect(logs.join('\n')).not.toContain('https://claims.example/');
  });

  it('disables public sign-up on the database connection without losing its other options, and enables our apps on it', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    const [connection] = tenant.connections;
    // PATCH replaces the whole options object: everything else the tenant had must survive.
    expect(connection?.options).toEqual({
      mfa: { active: true, return_enroll_settings: true },
      passwordPolicy: 'good',
      brute_force_protection: true,
      strategy_version: 2,
      disable_signup: true,
    });
    expect([...(tenant.connectionClients.get('con_default') ?? [])].sort()).toEqual(
      ['client_other_app', result.m2m.auth0Registration.clientId, result.spaClientId].sort(),
    );
    const patches = tenant.writes().filter((w) => w.path.startsWith('/api/v2/connections'));
    expect(patches.map((w) => `${w.method} ${w.path}`)).toEqual([
      'PATCH /api/v2/connections/con_default',
      'PATCH /api/v2/connections/con_default/clients',
    ]);
    expect(patches[1]?.body).toEqual([
      { client_id: result.spaClientId, status: true },
      { client_id: result.m2m.auth0Registration.clientId, status: true },
    ]);
  });

  it('turns sign-up off again after someone enabled it in the dashboard, and changes nothing else', async () => {
    await provision();
    const connection = tenant.connections[0] as Json;
    connection.options = {
      ...(connection.options as Json),
      disable_signup: false,
      passwordPolicy: 'excellent',
    };
    tenant.requests.length = 0;

    const { plan: drift } = await provision({ dryRun: true });
    expect(summary(drift.steps)).toEqual(['update connection options.disable_signup']);
    expect(formatPlan(drift, config.stage)).toContain('options.disable_signup: false -> true');
    expect(tenant.writes()).toEqual([]);

    await provision();
    expect(tenant.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/api/v2/connections/con_default',
        body: {
          options: {
            mfa: { active: true, return_enroll_settings: true },
            passwordPolicy: 'excellent',
            brute_force_protection: true,
            strategy_version: 2,
            disable_signup: true,
          },
        },
      },
    ]);
    tenant.requests.length = 0;
    expect((await provision()).plan.steps).toEqual([]);
  });

  it('enables the SPA on the connection again when someone turned it off, leaving other apps alone', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    tenant.connectionClients.get('con_default')?.delete(result.spaClientId);
    tenant.requests.length = 0;

    const { plan } = await provision();
    expect(plan.steps).toEqual([
      expect.objectContaining({ op: 'enable', resource: 'connectionClients', clients: ['spa'] }),
    ]);
    expect(tenant.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/api/v2/connections/con_default/clients',
        body: [{ client_id: result.spaClientId, status: true }],
      },
    ]);
    expect(tenant.connectionClients.get('con_default')).toContain('client_other_app');
  });

  it('creates the database connection, sign-up off, when the tenant has none', async () => {
    tenant.connections.length = 0;
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    expect(tenant.connections).toEqual([
      expect.objectContaining({
        name: 'Username-Password-Authentication',
        strategy: 'auth0',
        options: { disable_signup: true },
      }),
    ]);
    const created = String(tenant.connections[0]?.id);
    expect([...(tenant.connectionClients.get(created) ?? [])].sort()).toEqual(
      [result.m2m.auth0Registration.clientId, result.spaClientId].sort(),
    );
  });

  it('refuses to touch a connection of that name that is not a database connection', async () => {
    (tenant.connections[0] as Json).strategy = 'google-oauth2';
    await expect(provision({ dryRun: true })).rejects.toThrow(/strategy google-oauth2, not auth0/);
    expect(tenant.writes()).toEqual([]);
  });
});

describe('connections people could sign themselves up through (ADR 0074)', () => {
  /** Adds a connection to the tenant, enabled for the given applications. */
  function connection(name: string, strategy: string, options: Json, clientIds: string[]): void {
    const id = `con_${name.replace(/\W/g, '')}`;
    tenant.connections.push({ id, name, strategy, options });
    tenant.connectionClients.set(id, new Set(clientIds));
  }
  const withExtra = (extraConnections: string[]) =>
    desiredTenant(
      parseStageConfig({ ...exampleStages.dev, auth0: { ...exampleStages.dev?.auth0, extraConnections } }),
      { managementDomain: DOMAIN },
    );

  it('refuses a social connection enabled for the SPA that the stage does not name; a dry run reports it; nothing is written', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    connection('google-oauth2', 'google-oauth2', { scope: ['email', 'profile'] }, [result.spaClientId]);
    // Drift the refusal must not let through either.
    const spa = tenant.clients.find((c) => c.client_id === result.spaClientId) as Json;
    spa.callbacks = ['https://evil.example/auth/callback'];
    tenant.requests.length = 0;
    logs = [];

    const { plan } = await provision({ dryRun: true });
    expect(plan.refusals).toEqual([
      expect.stringContaining(
        'the connection "google-oauth2" (google-oauth2) is enabled for the SPA "Platform dev web", and the stage does not name it in auth0.extraConnections',
      ),
    ]);
    expect(logs.join('\n')).toContain('Refused: the connection "google-oauth2"');
    expect(logs.join('\n')).toContain('Dry run: nothing was changed.');
    expect(tenant.writes()).toEqual([]);

    await expect(provision()).rejects.toThrow(
      /refuses a tenant where people can sign themselves up; nothing was changed:\n {2}- the connection "google-oauth2"/,
    );
    expect(tenant.writes()).toEqual([]);
    expect(tenant.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      `GET /api/v2/clients/${result.spaClientId}/connections`,
    );
  });

  it('refuses a connection the stage names while its sign-up is on, and accepts it once sign-up is off', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    connection('email', 'email', { disable_signup: false, name: 'email' }, [result.spaClientId]);

    const { plan } = await provision({ dryRun: true, target: withExtra(['email']) });
    expect(plan.refusals).toEqual([
      expect.stringContaining(
        'named in auth0.extraConnections, but its sign-up is on (options.disable_signup is not true)',
      ),
    ]);
    await expect(provision({ target: withExtra(['email']) })).rejects.toThrow(/sign-up is on/);

    ((tenant.connections.find((c) => c.name === 'email') as Json).options as Json).disable_signup = true;
    const again = await provision({ target: withExtra(['email']) });
    expect(again.plan.refusals).toEqual([]);
  });

  it('leaves alone connections enabled only for other applications, and the database connection', async () => {
    const { result } = await provision();
    if (!result) throw new Error('not applied');
    connection('github', 'github', {}, ['client_other_app']);
    const { plan } = await provision();
    expect(plan.refusals).toEqual([]);
    expect(plan.steps).toEqual([]);
  });

  it('names the allowed extra connections in the stage config, each once', () => {
    expect(parseStageConfig(exampleStages.dev).auth0.extraConnections).toEqual([]);
    expect(() =>
      parseStageConfig({
        ...exampleStages.dev,
        auth0: { ...exampleStages.dev?.auth0, extraConnections: ['email', 'email'] },
      }),
    ).toThrow(/auth0\.extraConnections.*must not name a connection twice/s);
  });
});

describe("the provisioning application's Management API scopes", () => {
  it('refuses to start, naming each missing scope and its use, before it reads or changes anything', async () => {
    tenant.grantedScopes = provisioningScopes.filter((s) => s !== 'update:actions' && s !== 'create:actions');
    const attempt = provision();
    await expect(attempt).rejects.toThrow(
      /lacks Management API scopes; nothing was read or changed:\n {2}- create:actions \(to create the post-login Action; deploy the post-login Action\)\n {2}- update:actions \(to update the post-login Action; bind the Action to the post-login trigger\)/,
    );
    expect(tenant.requests.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it('asks for exactly the scopes of the calls it makes, as docs/deploying.md grants them', () => {
    // Every Management API call of infra/auth0/provision/tenant.ts has its row, and no row is unused.
    const source = readFileSync(
      new URL('../../../../infra/auth0/provision/tenant.ts', import.meta.url),
      'utf8',
    );
    const calls = [...source.matchAll(/\bclient((?:\s*\.[a-zA-Z]+)+)\(/g)].map((m) =>
      (m[1] as string).replace(/\s/g, '').slice(1),
    );
    expect([...new Set(calls)].sort()).toEqual(provisioningCalls.map((c) => c.call).sort());
    // Bindings are under the Actions scopes; deploying takes create:actions (Auth0's reference).
    expect(provisioningScopes).toEqual([
      'read:clients',
      'create:clients',
      'update:clients',
      'read:resource_servers',
      'create:resource_servers',
      'update:resource_servers',
      'read:client_grants',
      'create:client_grants',
      'update:client_grants',
      'read:actions',
      'create:actions',
      'update:actions',
      'read:connections',
      'create:connections',
      'update:connections',
      'read:roles',
      'create:roles',
      'update:roles',
    ]);
    const docs = readFileSync(new URL('../../../../docs/deploying.md', import.meta.url), 'utf8');
    const granted = /with exactly these permissions:\s*`([^`]+)`/.exec(docs)?.[1]?.split(/\s+/) ?? [];
    expect([...granted].sort()).toEqual([...provisioningScopes].sort());
  });
});

describe('every apply in the admin audit trail (ADR 0078)', () => {
  const entries = () => trail.listFrom(1);

  it('records an apply: the operator, the tenant, the command and counts, never a secret', async () => {
    const { plan, entry } = await provision();
    const stored = await entries();
    expect(stored).toEqual([entry]);
    expect(stored[0]).toMatchObject({
      actorType: 'operator',
      actorId: OPERATOR,
      action: 'provisioning_applied',
      targetType: 'auth0_tenant',
      targetId: DOMAIN,
      reasonCode: null,
      reason: COMMAND,
      requestId: null,
      details: {
        stage: 'dev',
        outcome: 'applied',
        planned: plan.steps.length,
        applied: plan.steps.length,
        // The SPA, the API, each M2M application and its grant, the Action, the two organization roles.
        created: 2 + 2 * auth0M2mKeys.length + 1 + 2,
        updated: 1,
        deployed: 1,
        otherSteps: 2,
        actionSecretsWritten: true,
      },
    });
    expect(String(stored[0]?.details.resources).split(' ')).toEqual(
      expect.arrayContaining([
        'spa',
        'api',
        'action',
        'connection',
        'binding',
        'connectionClients',
        'role:org_admin',
        'role:org_member',
      ]),
    );
    const text = JSON.stringify(stored);
    for (const client of tenant.clients) expect(text).not.toContain(String(client.client_secret));
    expect(text).not.toContain('prov-secret');
    expect(logs.join('\n')).toContain(
      `Recorded in the admin audit trail: entry #1 (provisioning_applied, by ${OPERATOR}).`,
    );
  });

  it('records nothing for a run with nothing to apply, and chains the next apply onto the first', async () => {
    await provision();
    const again = await provision();
    expect(again.plan.steps).toEqual([]);
    expect(again.entry).toBeUndefined();
    expect(await entries()).toHaveLength(1);

    const rewritten = await provision({ rewriteActionSecrets: true });
    const stored = await entries();
    expect(stored.map((e) => e.sequence)).toEqual([1, 2]);
    expect(stored[1]).toMatchObject({
      previousHash: stored[0]?.hash,
      details: { updated: 1, deployed: 1, created: 0, actionSecretsWritten: true, resources: 'action' },
    });
    expect(rewritten.entry?.hash).toBe(stored[1]?.hash);
    expect(verifyChain(stored)).toMatchObject({ ok: true, breaks: [] });
  });

  it('needs no trail for a dry run, and a dry run records nothing', async () => {
    const client = await createProvisioningClient({
      domain: DOMAIN,
      clientId: 'p',
      clientSecret: 's',
      fetch: tenant.fetch,
    });
    const { plan } = await provisionTenant(client, desired(), { stage: 'dev', dryRun: true });
    expect(plan.steps.length).toBeGreaterThan(0);
    await provision({ dryRun: true });
    expect(await entries()).toEqual([]);
  });

  it('refuses to apply without a trail before reading or changing anything', async () => {
    const client = await createProvisioningClient({
      domain: DOMAIN,
      clientId: 'p',
      clientSecret: 's',
      fetch: tenant.fetch,
    });
    await expect(provisionTenant(client, desired(), { stage: 'dev' })).rejects.toThrow(
      ProvisioningTrailRequiredError,
    );
    expect(tenant.requests.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it('stops before reading the tenant when the trail cannot be read (a wrong table name)', async () => {
    const client = await createProvisioningClient({
      domain: DOMAIN,
      clientId: 'p',
      clientSecret: 's',
      fetch: tenant.fetch,
    });
    const wrong = new DynamoDbAdminAuditLog(documents, 'no-such-table');
    await expect(
      provisionTenant(client, desired(), {
        stage: 'dev',
        trail: trailOf(wrong),
        sleep: async () => undefined,
      }),
    ).rejects.toThrow(/non-existent table|ResourceNotFound|Cannot do operations/);
    expect(tenant.requests.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it('records an apply that failed part way as failed, with the steps that were applied, then fails', async () => {
    tenant.refuse = 'POST /api/v2/actions/actions';
    const attempt = provision();
    await expect(attempt).rejects.toThrow('Refused by the test');
    const [entry] = await entries();
    const applied = tenant.writes().length - 1;
    expect(entry).toMatchObject({
      action: 'provisioning_applied',
      details: { outcome: 'failed', applied, actionSecretsWritten: false },
    });
    expect(Number(entry?.details.planned)).toBeGreaterThan(applied);
    expect(logs.join('\n')).toContain(`Recorded the partial apply (${applied} of`);
  });

  it('records nothing when the first step already fails: the tenant did not change', async () => {
    tenant.refuse = 'POST /api/v2/clients';
    await expect(provision()).rejects.toThrow('Refused by the test');
    expect(await entries()).toEqual([]);
  });
});
