import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kycChannelNamespace } from '#contracts/kyc-channel.ts';
import { organizationRoleDescriptions, organizationRoles } from '#contracts/organization.ts';
import type { WebConfig } from '#contracts/web-config.ts';
import { envVars, functionEnv } from '#lambdas/environment.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import {
  type Auth0M2mKey,
  auth0M2mKeys,
  auth0M2mScopes,
  type SecretKey,
  secretEnvVars,
} from '#lambdas/grants.ts';
import { routes } from '#lambdas/routes.ts';
import { type TableKey, tables } from '#lambdas/tables.ts';
import { loadKycDecisionsHandlers } from './appsync-events/handlers.ts';
import { startAppSyncEvents } from './appsync-events/index.ts';
import { localCredentials, startDynamoDb } from './dynamodb.ts';
import { createDynamoDbCallLog } from './gateway/dynamodb-calls.ts';
import { eventBridgePath, secretsManagerPath, sesPath, startGateway } from './gateway/index.ts';
import { putEventsProbe } from './gateway/put-events-probe.ts';
import type { IdpOptions } from './idp/index.ts';
import { type ManagementApiPlan, managementApiStatsPath } from './idp/rate-limit.ts';
import { MANAGEMENT_SCOPES } from './idp/scopes.ts';
import { startIdpThread } from './idp/thread.ts';
import { startPersona } from './persona/index.ts';
import type { LocalPorts } from './ports.ts';
import { startSes } from './ses.ts';
import { startWeb } from './web/index.ts';

// The whole product on loopback (docs/design.md section 8). `local/start.ts` is its command line; the
// stack tests start it the same way, as a child process.

export interface StackOptions {
  ports: LocalPorts;
  web: 'dev' | 'dist';
  /** Where state lives: secrets, IdP users and keys, the DynamoDB file, `stack.json`, dead letters. */
  stateDir: string;
  /** Keep DynamoDB in memory (tests) instead of in `stateDir/dynamodb`. */
  inMemoryDb: boolean;
  /**
   * Raises the per-IP limit on the public write routes (the stack tests register many users from
   * one address); unset, the gateway applies the production rule (lambdas/http/edge.ts).
   */
  perIpWriteLimit?: { limit: number; windowSeconds: number };
  /** The identity provider's Management API quota (`LOCAL_AUTH0_PLAN`, ADR 0061). */
  auth0Plan: ManagementApiPlan;
  log(line: string): void;
}

export interface StackAccount {
  email: string;
  password: string;
  role: 'admin' | 'user';
  organizationType: 'commercial' | 'defense' | 'academic' | 'government';
  kycStatus: 'not_started' | 'pending' | 'approved' | 'rejected';
  name: string;
}

/** `.local/stack.json`: scripts and tests read it (shape fixed by the foundation issue). */
export interface StackInfo {
  web: string;
  api: string;
  idp: {
    issuer: string;
    audience: string;
    claimsNamespace: string;
    spaClientId: string;
    testClientId: string;
    testClientSecret: string;
    /** The local operator's application: every Management API scope, for tests and scripts, no function. */
    m2mClientId: string;
    m2mClientSecret: string;
    /** The functions' applications, one per credentials key, each with only its scopes (ADR 0034). */
    m2mClients: Record<Auth0M2mKey, { clientId: string; clientSecret: string }>;
    /**
     * The tenant's Management API quota as the provider enforces it (ADR 0061): the plan, its
     * bucket (burst) and refill (per second), and where its counters are read and reset.
     */
    managementApi: { plan: string; burst: number; perSecond: number; statsUrl: string };
  };
  persona: { url: string; templateId: string; webhookSecret: string; apiKey: string; environmentId: string };
  ses: { url: string };
  dynamodb: { endpoint: string; tables: Record<string, string> };
  eventBridge: { endpoint: string; busName: string };
  /** The AppSync Events emulator (ADR 0060): `${httpDomain}/event` publishes, `${realtimeDomain}/event/realtime` subscribes. */
  realtime: { httpDomain: string; realtimeDomain: string; namespace: string };
  accounts: StackAccount[];
}

export const localIdentity = {
  audience: 'https://api.platform.local',
  claimsNamespace: 'https://platform.local/',
  spaClientId: 'local-spa',
  testClientId: 'local-test-client',
  m2mClientId: 'local-backend-m2m',
  m2mClientIds: Object.fromEntries(auth0M2mKeys.map((key) => [key, `local-m2m-${key}`])) as Record<
    Auth0M2mKey,
    string
  >,
  personaTemplateId: 'itmpl_LocalOnboarding0001',
  personaEnvironmentId: 'env_LocalSandbox0001',
  busName: 'platform-local',
  region: 'eu-central-1',
  sender: 'no-reply@platform.local',
  operationsEmail: 'operations@platform.local',
  /** The local Secrets Manager's ids, named like the secrets they stand for. */
  secretIds: Object.fromEntries(Object.keys(secretEnvVars).map((key) => [key, `local/${key}`])) as Record<
    SecretKey,
    string
  >,
} as const;

/**
 * Seeded for development: two admins (four-eyes decisions need a second one, ADR 0080) and one
 * approved user per segment. Local-only passwords.
 */
export const seededAccounts: StackAccount[] = [
  {
    email: 'admin@platform.local',
    password: 'Admin-Local-Pass-1',
    role: 'admin',
    organizationType: 'commercial',
    kycStatus: 'approved',
    name: 'Local Admin',
  },
  {
    email: 'reviewer@platform.local',
    password: 'Reviewer-Local-Pass-1',
    role: 'admin',
    organizationType: 'commercial',
    kycStatus: 'approved',
    name: 'Second Reviewer',
  },
  {
    email: 'commercial@acme-pharma.example',
    password: 'Commercial-Local-Pass-1',
    role: 'user',
    organizationType: 'commercial',
    kycStatus: 'approved',
    name: 'Casey Commercial',
  },
  {
    email: 'defense@northwatch-defense.example',
    password: 'Defense-Local-Pass-1',
    role: 'user',
    organizationType: 'defense',
    kycStatus: 'approved',
    name: 'Dana Defense',
  },
];

interface LocalSecrets {
  m2mClientSecret: string;
  m2mClientSecrets: Record<Auth0M2mKey, string>;
  testClientSecret: string;
  personaApiKey: string;
  personaWebhookSecret: string;
  /** What the local web servers send as CloudFront's origin header (ADR 0032). */
  originSecret: string;
}

/** Random per clone, kept across restarts so tokens and configured clients stay valid. */
async function loadSecrets(stateDir: string): Promise<LocalSecrets> {
  const file = join(stateDir, 'secrets.json');
  const newSecret = () => randomBytes(32).toString('base64url');
  const kept: Partial<LocalSecrets> = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : {};
  const keptM2m: Partial<Record<Auth0M2mKey, string>> = kept.m2mClientSecrets ?? {};
  const secrets: LocalSecrets = {
    m2mClientSecret: kept.m2mClientSecret ?? newSecret(),
    // A state directory from before the split (ADR 0034) gets the functions' applications added.
    m2mClientSecrets: Object.fromEntries(
      auth0M2mKeys.map((key) => [key, keptM2m[key] ?? newSecret()]),
    ) as Record<Auth0M2mKey, string>,
    testClientSecret: kept.testClientSecret ?? newSecret(),
    personaApiKey: kept.personaApiKey ?? `persona_sandbox_local_${randomBytes(16).toString('hex')}`,
    personaWebhookSecret: kept.personaWebhookSecret ?? `wbhsec_${randomBytes(24).toString('hex')}`,
    // Added later than the others: a state directory from before gets one now.
    originSecret: kept.originSecret ?? newSecret(),
  };
  if (JSON.stringify(kept) !== JSON.stringify(secrets))
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export interface RunningStack {
  info: StackInfo;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const { ports, log } = options;
  await mkdir(options.stateDir, { recursive: true });
  const stackFile = join(options.stateDir, 'stack.json');
  await rm(stackFile, { force: true });
  const secrets = await loadSecrets(options.stateDir);
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    await rm(stackFile, { force: true });
    for (const closer of closers.reverse()) {
      await closer().catch((error: unknown) => log(`while stopping: ${String(error)}`));
    }
  };

  try {
    const issuer = `http://localhost:${ports.idp}/`;
    const webUrl = `http://localhost:${ports.web}`;
    const apiUrl = `http://localhost:${ports.api}`;
    const personaUrl = `http://localhost:${ports.persona}`;
    const sesEndpoint = `http://127.0.0.1:${ports.ses}`;

    const dynamodbDir = join(options.stateDir, 'dynamodb');
    if (!options.inMemoryDb) await mkdir(dynamodbDir, { recursive: true });
    const dynamodb = await startDynamoDb({
      port: ports.dynamodb,
      tablePrefix: 'local-',
      ...(options.inMemoryDb ? {} : { dbPath: dynamodbDir }),
    });
    closers.push(dynamodb.close);
    log(
      `  dynamodb  ${dynamodb.endpoint}  (DynamoDB Local; tables ${Object.values(dynamodb.tableNames).join(', ')})`,
    );

    const ses = await startSes({ port: ports.ses });
    closers.push(ses.close);
    log(`  email     ${ses.url}  (aws-ses-v2-local: SES v2 API and mailbox viewer)`);

    const idpOptions: IdpOptions = {
      port: ports.idp,
      audience: localIdentity.audience,
      claimsNamespace: localIdentity.claimsNamespace,
      spa: {
        clientId: localIdentity.spaClientId,
        redirectUris: [`${webUrl}/auth/callback`],
        postLogoutRedirectUris: [webUrl, `${webUrl}/`],
      },
      m2m: [
        {
          clientId: localIdentity.m2mClientId,
          clientSecret: secrets.m2mClientSecret,
          name: 'Local operator (tests and scripts)',
          scopes: MANAGEMENT_SCOPES,
        },
        ...auth0M2mKeys.map((key) => ({
          clientId: localIdentity.m2mClientIds[key],
          clientSecret: secrets.m2mClientSecrets[key],
          name: `Backend ${key} (local M2M)`,
          scopes: auth0M2mScopes[key],
        })),
      ],
      test: { clientId: localIdentity.testClientId, clientSecret: secrets.testClientSecret },
      dataDir: join(options.stateDir, 'idp'),
      ses: { endpoint: sesEndpoint, region: localIdentity.region, from: localIdentity.sender },
      seedUsers: seededAccounts.map((account) => ({
        email: account.email,
        password: account.password,
        name: account.name,
        emailVerified: true,
        appMetadata: {
          role: account.role,
          organization_type: account.organizationType,
          kyc_status: account.kycStatus,
        },
      })),
      // The organization roles, as provisioning creates them on Auth0 (ADR 0083).
      seedRoles: organizationRoles.map((name) => ({ name, description: organizationRoleDescriptions[name] })),
      managementApiPlan: options.auth0Plan,
    };
    // On its own thread, as Auth0 runs apart from the functions (ADR 0055).
    let idp = await startIdpThread(idpOptions, log);
    // A restart (the `idp/restart` control) swaps the instance: close whichever runs then.
    closers.push(() => idp.close());
    const plan = options.auth0Plan;
    log(
      `  identity  ${idp.url}  (Auth0-compatible provider; issuer ${idp.issuer}; Management API at Auth0's ${plan.name} plan: burst ${plan.burst}, ${plan.perSecond}/s)`,
    );

    const persona = await startPersona({
      port: ports.persona,
      apiKey: secrets.personaApiKey,
      templateId: localIdentity.personaTemplateId,
      environmentId: localIdentity.personaEnvironmentId,
      // Persona posts to the site's origin, through CloudFront: the API refuses anything else.
      webhook: { url: `${webUrl}/api/webhooks/persona`, secret: secrets.personaWebhookSecret },
      dataDir: join(options.stateDir, 'persona'),
    });
    closers.push(persona.close);
    log(`  persona   ${personaUrl}  (Persona emulator: inquiry API and widget)`);

    // AppSync Events, as the stage's API is configured: subscribe with the Auth0 access token
    // (OIDC), publish with SigV4 (IAM), the namespace's onSubscribe handler the bundle AWS runs.
    const realtime = await startAppSyncEvents({
      port: ports.realtime,
      region: localIdentity.region,
      oidc: { issuer, audience: localIdentity.audience, jwksUri: `${issuer}.well-known/jwks.json` },
      namespaces: { [kycChannelNamespace]: await loadKycDecisionsHandlers() },
      log: (line) => log(`  [realtime] ${line}`),
    });
    closers.push(realtime.close);
    log(`  realtime  ${realtime.httpDomain}  (AppSync Events emulator: WebSocket and HTTP publish)`);

    // The handlers run in this process and read their configuration from the environment, as in
    // Lambda; only the endpoints differ from AWS.
    Object.assign(process.env, handlerEnvironment({ ports, tableNames: dynamodb.tableNames }), {
      [functionEnv.realtimeHttpDomain]: realtime.httpDomain,
    });
    // Every handler shares this client (one per container in AWS); locally a middleware that only
    // counts is attached to it, so the stack can report each invocation's DynamoDB calls.
    const dynamoDbCallLog = createDynamoDbCallLog();
    dynamoDbCallLog.attach((await import('#lambdas/adapters/dynamodb-client.ts')).documentClient);
    const gateway = await startGateway({
      dynamoDbCallLog,
      port: ports.api,
      authorizer: { issuer, audience: localIdentity.audience, jwksUri: `${issuer}.well-known/jwks.json` },
      routes,
      eventRules,
      secrets: {
        ...Object.fromEntries(
          auth0M2mKeys.map((key) => [
            localIdentity.secretIds[key],
            JSON.stringify({
              clientId: localIdentity.m2mClientIds[key],
              clientSecret: secrets.m2mClientSecrets[key],
            }),
          ]),
        ),
        [localIdentity.secretIds.personaApiKey]: secrets.personaApiKey,
        [localIdentity.secretIds.personaWebhookSecret]: secrets.personaWebhookSecret,
        [localIdentity.secretIds.originVerify]: JSON.stringify({ current: secrets.originSecret }),
      },
      originSecret: secrets.originSecret,
      // Outages on demand for the resilience suites (ADR 0039): the same port and state after each.
      controls: {
        'dynamodb/stop': async () => {
          await dynamodb.stop();
          log('  dynamodb  stopped (control)');
          return { dynamodb: 'stopped' };
        },
        'dynamodb/start': async () => {
          await dynamodb.start();
          log('  dynamodb  started again (control)');
          return { dynamodb: 'running' };
        },
        // The bench's reference for the webhook's CPU: the signed PutEvents alone, in this process (ADR 0063).
        'bench/put-events': () => putEventsProbe(localIdentity.busName),
        // Four-eyes decisions on or off for the handlers of this process (ADR 0080): the stack
        // tests turn it on around the tests that need it.
        'four-eyes/on': async () => {
          process.env[functionEnv.fourEyes] = 'true';
          return { fourEyes: true };
        },
        'four-eyes/off': async () => {
          process.env[functionEnv.fourEyes] = 'false';
          return { fourEyes: false };
        },
        'idp/restart': async () => {
          await idp.close();
          idp = await startIdpThread(idpOptions, log);
          log('  identity  restarted (control)');
          return { idp: 'restarted' };
        },
      },
      ...(options.perIpWriteLimit ? { perIpWriteLimit: options.perIpWriteLimit } : {}),
      busName: localIdentity.busName,
      region: localIdentity.region,
      deadLetterFile: join(options.stateDir, 'dead-letters.jsonl'),
      // The functions send through the gateway's SES proxy, where the SES fault knob lives (ADR 0035).
      sesEndpoint,
      log: (line) => log(`  [api] ${line}`),
    });
    closers.push(gateway.close);
    log(
      `  api       ${gateway.url}  (local API gateway: ${routes.length} routes, ${eventRules.length} event rules)`,
    );

    const webConfig: WebConfig = {
      stage: 'local',
      auth0: {
        domain: `http://localhost:${ports.idp}`,
        clientId: localIdentity.spaClientId,
        audience: localIdentity.audience,
        claimsNamespace: localIdentity.claimsNamespace,
      },
      persona: {
        environmentId: localIdentity.personaEnvironmentId,
        customHost: `localhost:${ports.persona}`,
      },
      realtime: { httpDomain: realtime.httpDomain, realtimeDomain: realtime.realtimeDomain },
    };
    const web = await startWeb({
      port: ports.web,
      mode: options.web,
      apiUrl,
      originSecret: secrets.originSecret,
      config: webConfig,
    });
    closers.push(web.close);
    log(
      `  web       ${webUrl}  (${options.web === 'dev' ? 'Vite dev server' : 'production build, CloudFront-like'})`,
    );

    const info: StackInfo = {
      web: webUrl,
      api: apiUrl,
      idp: {
        issuer,
        audience: localIdentity.audience,
        claimsNamespace: localIdentity.claimsNamespace,
        spaClientId: localIdentity.spaClientId,
        testClientId: localIdentity.testClientId,
        testClientSecret: secrets.testClientSecret,
        m2mClientId: localIdentity.m2mClientId,
        m2mClientSecret: secrets.m2mClientSecret,
        m2mClients: Object.fromEntries(
          auth0M2mKeys.map((key) => [
            key,
            { clientId: localIdentity.m2mClientIds[key], clientSecret: secrets.m2mClientSecrets[key] },
          ]),
        ) as StackInfo['idp']['m2mClients'],
        managementApi: {
          plan: options.auth0Plan.name,
          burst: options.auth0Plan.burst,
          perSecond: options.auth0Plan.perSecond,
          statsUrl: `http://localhost:${ports.idp}${managementApiStatsPath}`,
        },
      },
      persona: {
        url: personaUrl,
        templateId: localIdentity.personaTemplateId,
        webhookSecret: secrets.personaWebhookSecret,
        apiKey: secrets.personaApiKey,
        environmentId: localIdentity.personaEnvironmentId,
      },
      ses: { url: ses.url },
      dynamodb: {
        endpoint: dynamodb.endpoint,
        tables: Object.fromEntries(
          (Object.keys(dynamodb.tableNames) as TableKey[]).map((key) => [
            tables[key].logicalName,
            dynamodb.tableNames[key],
          ]),
        ),
      },
      eventBridge: { endpoint: gateway.eventBridgeEndpoint, busName: localIdentity.busName },
      realtime: {
        httpDomain: realtime.httpDomain,
        realtimeDomain: realtime.realtimeDomain,
        namespace: kycChannelNamespace,
      },
      accounts: seededAccounts,
    };
    // Written whole, then renamed into place: whoever waits for the file (spawnStack polls for it)
    // must never read it half-written.
    await writeFile(`${stackFile}.tmp`, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    await rename(`${stackFile}.tmp`, stackFile);
    return { info, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function handlerEnvironment(input: {
  ports: LocalPorts;
  tableNames: Record<TableKey, string>;
}): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: localIdentity.region,
    AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${input.ports.dynamodb}`,
    AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${input.ports.api}${sesPath}`,
    AWS_ENDPOINT_URL_EVENTBRIDGE: `http://127.0.0.1:${input.ports.api}${eventBridgePath}`,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${input.ports.api}${secretsManagerPath}`,
    // Every secret's id: locally every function may read every secret (one process; ADR 0034).
    ...Object.fromEntries(
      (Object.keys(secretEnvVars) as SecretKey[]).map((key) => [
        secretEnvVars[key],
        localIdentity.secretIds[key],
      ]),
    ),
    ...envVars({
      appUrl: `http://localhost:${input.ports.web}`,
      operationsEmail: localIdentity.operationsEmail,
      // Off, as a stage's default; `LOCAL_FOUR_EYES=1 npm start` or the gateway's
      // `POST /__local/four-eyes/on` turns it on (ADR 0080).
      fourEyes: process.env.LOCAL_FOUR_EYES === '1' ? 'true' : 'false',
      eventBusName: localIdentity.busName,
      auth0Domain: `localhost:${input.ports.idp}`,
      auth0Issuer: `http://localhost:${input.ports.idp}/`,
      auth0ManagementBaseUrl: `http://localhost:${input.ports.idp}`,
      auth0Audience: localIdentity.audience,
      auth0SpaClientId: localIdentity.spaClientId,
      claimsNamespace: localIdentity.claimsNamespace,
      personaApiUrl: `http://localhost:${input.ports.persona}`,
      personaTemplateId: localIdentity.personaTemplateId,
      sesSender: localIdentity.sender,
      powertoolsServiceName: 'platform-api-local',
    }),
  };
  for (const key of Object.keys(input.tableNames) as TableKey[])
    env[tables[key].envVar] = input.tableNames[key];
  // Each rule's own settings (their names are the rule's own, so one process can hold them all).
  for (const rule of eventRules) Object.assign(env, rule.environment);
  return env;
}
