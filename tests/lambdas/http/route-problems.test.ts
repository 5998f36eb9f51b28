import { createHmac } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteId } from '#contracts/api.ts';
import { consentDocuments } from '#contracts/consent-documents.ts';
import { hasGermanMessage } from '#contracts/messages-de.ts';
import { type ProblemName, problemTypes } from '#contracts/problem.ts';
import { maxBodyBytesOf } from '#contracts/route.ts';
import { rateLimitKey } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { recipientKey } from '#lambdas/domain/emails/recipient-limit.ts';
import { StorageUnavailableError } from '#lambdas/domain/errors.ts';
import type { HttpApiEvent, JwtClaimValue } from '#lambdas/http/api-gateway.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import { buildOpenApiDocument } from '#lambdas/http/openapi.ts';
import { routeProblemNames } from '#lambdas/http/problems.ts';
import { type RouteDef, routes } from '#lambdas/routes.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';
import { type DynamoCall, deniedCalls } from '#tests/helpers/grant-check.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';

// Every route's real handler, driven into each of its failures through `httpHandler` with
// realistic API Gateway v2 events (verified claims as the JWT authorizer hands them over: strings).
// Each answer must carry a problem type the OpenAPI document lists for that route and status, and
// every problem a route declares must be one a scenario here produces: declaration and behaviour
// cannot drift apart. AWS is mocked at the SDK, Auth0 and Persona at fetch.

const NAMESPACE = 'https://platform.test/';
const ISSUER = 'https://tenant.test/';
const USER = 'auth0|user-1';
const env = {
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  CONSENT_LEDGER_TABLE: 'ledger',
  KYC_STATE_TABLE: 'kyc',
  ADMIN_AUDIT_TABLE: 'audit',
  SUBMISSIONS_TABLE: 'submissions',
  EVENT_BUS_NAME: 'bus',
  SES_SENDER: 'no-reply@platform.test',
  AUTH0_DOMAIN: 'tenant.test',
  AUTH0_ISSUER: ISSUER,
  AUTH0_AUDIENCE: 'https://api.platform.test',
  CLAIMS_NAMESPACE: NAMESPACE,
  AUTH0_REGISTRATION_SECRET_ID: 'm2m',
  AUTH0_READ_USERS_SECRET_ID: 'm2m',
  AUTH0_VERIFICATION_EMAIL_SECRET_ID: 'm2m',
  AUTH0_ORGANIZATION_TEAM_SECRET_ID: 'm2m',
  AUTH0_SPA_CLIENT_ID: 'spa-client',
  PERSONA_API_URL: 'https://persona.test',
  PERSONA_TEMPLATE_ID: 'itmpl_test',
  PERSONA_ENVIRONMENT_ID: 'env_test',
  PERSONA_API_KEY_SECRET_ID: 'persona-key',
  PERSONA_WEBHOOK_SECRET_ID: 'persona-webhook',
  APP_URL: 'https://app.platform.test',
  OPERATIONS_EMAIL: 'ops@platform.test',
};
const WEBHOOK_SECRET = 'wbhsec_test';

const ddb = mockClient(DynamoDBDocumentClient);
/** Signs the access tokens the JWT authorizer passed (the handlers verify them again). */
let tenantKey: SigningKey;
const bus = mockClient(EventBridgeClient);
const secrets = mockClient(SecretsManagerClient);
const ses = mockClient(SESv2Client);
const tableNames = {
  consentLedger: 'ledger',
  kycState: 'kyc',
  submissions: 'submissions',
  adminAuditLog: 'audit',
} as const;
/** The DynamoDB calls so far that the route's grants would not allow in AWS (tests/helpers/grant-check.ts). */
const callsDenied = (route: RouteDef) =>
  deniedCalls(
    route.grants,
    ddb.calls().map((call) => {
      const command = call.args[0] as { constructor: { name: string }; input: Record<string, unknown> };
      return { command: command.constructor.name, input: command.input } satisfies DynamoCall;
    }),
    tableNames,
  );

/** Auth0 and Persona: each scenario sets the answer for a `METHOD host/path` prefix. */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
let remote: [prefix: string, answer: Answer][] = [];
const fetchCalls: string[] = [];
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const key = `${init?.method ?? 'GET'} ${url.host}${url.pathname}`;
  // The issuer's JWKS, for the handlers' own check of the bearer token (not a call under test).
  if (key === 'GET tenant.test/.well-known/jwks.json') return Response.json({ keys: [tenantKey.jwk] });
  fetchCalls.push(key);
  if (key === 'POST tenant.test/oauth/token') {
    return Response.json({ access_token: 'management-token', expires_in: 86400, token_type: 'Bearer' });
  }
  const answer = remote.find(([prefix]) => key.startsWith(prefix))?.[1];
  if (!answer) return Response.json({ statusCode: 404, error: 'Not Found', message: key }, { status: 404 });
  return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json', ...answer.headers },
  });
};

const handlers = new Map<string, HttpLambda>();
const document = buildOpenApiDocument({ routes, version: 'test' });
const routeOf = (id: RouteId) => routes.find((route) => route.id === id) as RouteDef;

beforeAll(async () => {
  tenantKey = await signingKey('tenant-key');
  Object.assign(process.env, env);
  // Module-scope clients capture fetch when the handlers load: stub it first.
  vi.stubGlobal('fetch', fakeFetch);
  secrets.on(GetSecretValueCommand, { SecretId: 'm2m' }).resolves({
    SecretString: JSON.stringify({ clientId: 'backend', clientSecret: 'backend-secret' }),
  });
  secrets
    .on(GetSecretValueCommand, { SecretId: 'persona-key' })
    .resolves({ SecretString: 'persona_api_key' });
  secrets
    .on(GetSecretValueCommand, { SecretId: 'persona-webhook' })
    .resolves({ SecretString: WEBHOOK_SECRET });
  mockOriginSecret(secrets);
  for (const route of routes) {
    const module = (await import(`../../../lambdas/handlers/${route.handler}.ts`)) as { handler: HttpLambda };
    handlers.set(route.id, module.handler);
  }
});

afterAll(() => {
  vi.unstubAllGlobals();
});

beforeEach(() => {
  // Four-eyes off unless a scenario turns it on (ADR 0080).
  delete process.env.FOUR_EYES;
  ddb.reset();
  bus.reset();
  remote = [];
  fetchCalls.length = 0;
  // Unless a scenario says otherwise: empty tables, writes succeed, the bus accepts.
  ddb.on(GetCommand).resolves({});
  ddb.on(BatchGetCommand).resolves({ Responses: {} });
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(PutCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] });
});

function claims(overrides: Record<string, JwtClaimValue | undefined> = {}): Record<string, JwtClaimValue> {
  const all: Record<string, JwtClaimValue | undefined> = {
    sub: USER,
    iss: ISSUER,
    aud: env.AUTH0_AUDIENCE,
    iat: '1795158000',
    exp: '1795161600',
    scope: 'openid profile email offline_access',
    [`${NAMESPACE}role`]: 'user',
    [`${NAMESPACE}email_verified`]: 'true',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)) as Record<
    string,
    JwtClaimValue
  >;
}

/** An admin: another person than USER, whose verification the admin routes act on. */
const admin = { sub: 'auth0|admin-1', [`${NAMESPACE}role`]: 'admin' };
const ORG = 'org_0123456789abcdef';
/** A login through the organization (Auth0's `org_id`, the Action's `org_roles`; ADR 0083). */
const orgMember = (orgId: string, roles: string[] = ['org_admin']) => ({
  org_id: orgId,
  [`${NAMESPACE}org_roles`]: roles,
});
const unverified = { [`${NAMESPACE}email_verified`]: 'false' };

/** The access token the authorizer's claims came from (claims in the token are typed, not strings). */
function tokenFor(verified: Record<string, JwtClaimValue>): Promise<string> {
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(verified)) {
    payload[name] = value === 'true' ? true : value === 'false' ? false : value;
  }
  return tenantKey.sign({ ...payload, ...freshTimes() });
}

/**
 * A payload 2.0 event for the route, as API Gateway builds it (claims only on user/admin routes,
 * with the bearer token they came from).
 */
async function eventFor(
  route: RouteDef,
  input: {
    body?: string;
    claims?: Record<string, JwtClaimValue> | null;
    headers?: Record<string, string>;
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
  } = {},
): Promise<HttpApiEvent> {
  const base = httpApiEvent();
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => input.pathParameters?.[name] ?? 'x');
  const protectedRoute = route.auth === 'user' || route.auth === 'admin';
  const verified = input.claims === undefined ? (protectedRoute ? claims() : null) : input.claims;
  return {
    ...base,
    routeKey: `${route.method} ${route.path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(input.query ?? {}).toString(),
    headers: {
      ...base.headers,
      ...(verified ? { authorization: `Bearer ${await tokenFor(verified)}` } : {}),
      ...input.headers,
    },
    ...(input.query ? { queryStringParameters: input.query } : {}),
    ...(input.pathParameters ? { pathParameters: input.pathParameters } : {}),
    requestContext: {
      ...base.requestContext,
      routeKey: `${route.method} ${route.path}`,
      http: { ...base.requestContext.http, method: route.method, path },
      ...(verified ? { authorizer: { jwt: { claims: verified, scopes: null } } } : {}),
    },
    ...(input.body === undefined ? { body: undefined } : { body: input.body }),
    isBase64Encoded: false,
  } as HttpApiEvent;
}

const parse = (body: string | undefined) => JSON.parse(body ?? 'null') as Record<string, unknown>;

/** The problem types the OpenAPI document lists for a route and status. */
function documented(route: RouteDef, status: number): string[] {
  const operation = (document.paths[route.path] as Record<string, { responses: Record<string, unknown> }>)[
    route.method.toLowerCase()
  ];
  const response = operation?.responses[String(status)] as
    | { content?: Record<string, { schema?: { allOf?: { properties?: { type?: { enum?: string[] } } }[] } }> }
    | undefined;
  return response?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.type?.enum ?? [];
}

const consentBody = JSON.stringify({
  identity_verification_consent: true,
  biometric_data_consent: true,
  privacy_policy_consent: true,
  consent_type: 'identity_verification',
});
const grantedConsent = {
  subjectId: USER,
  issuer: ISSUER,
  purpose: 'identity_verification',
  action: 'granted',
  statements: {
    identity_verification_consent: true,
    biometric_data_consent: true,
    privacy_policy_consent: true,
  },
  documentVersion: consentDocuments.identity_verification.version,
  sequence: 1,
  hash: 'a'.repeat(64),
};
const decisionBody = {
  decision: 'approved',
  reasonCode: 'identity_confirmed',
  reason: 'Documents checked by hand.',
};
const newAttemptBody = { reason: 'The person sent a readable passport photo.' };

const kycState = (overrides: Record<string, unknown> = {}) => ({
  pk: `USER#${USER}`,
  sk: 'STATE',
  userId: USER,
  status: 'pending',
  updatedAt: '2026-11-20T00:00:00.000Z',
  inquiryId: 'inq_1',
  referenceId: USER,
  version: 3,
  lastEventId: 'evt_1',
  lastEventAt: '2026-11-20T00:00:00.000Z',
  decidedBy: 'persona',
  ...overrides,
});
/** Persona's inquiry with one verification and a failed check (`?include=verifications`, ADR 0082). */
const personaInquiryWithChecks: Answer = {
  status: 200,
  body: {
    data: { type: 'inquiry', id: 'inq_1', attributes: { status: 'needs_review', 'reference-id': USER } },
    included: [
      {
        type: 'verification/selfie',
        id: 'ver_1',
        attributes: {
          status: 'failed',
          checks: [{ name: 'selfie_id_comparison', status: 'failed', reasons: ['mismatch'] }],
        },
      },
    ],
  },
};
/** Auth0 answers 503 asking for more time than the adapter's 10 s budget: it gives up at once. */
const auth0Down: Answer = { status: 503, body: { statusCode: 503 }, headers: { 'retry-after': '60' } };
/** A signed-in person's own deletion request (ADR 0076). */
const OWN_REQUEST = '6f1c2b1e-8d3a-4c55-9a7e-2b4d6c8e0f11';
const transactionConflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  });
const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item ? { Item: item as never } : {}),
  });
const registrationBody = JSON.stringify({
  responsibleName: 'Ada Lovelace',
  responsibleTitle: 'CTO',
  responsibleEmail: 'ada@customer.test',
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Customer GmbH',
  organizationUrl: 'https://customer.test',
  organizationType: 'commercial',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
});
const signed = (body: string) => {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`;
};

interface Scenario {
  route: RouteId;
  name: string;
  expected: ProblemName;
  arrange?: () => void;
  event?: Parameters<typeof eventFor>[1];
  /** What must not have happened (nothing written, no remote call). */
  after?: () => void;
}

/** The tombstone an erasure leaves: the account's tokens may outlive it (ADR 0059). */
const erasedProfile = () => {
  ddb.on(BatchGetCommand).resolves({
    Responses: {
      submissions: [{ pk: `PROFILE#${USER}`, sk: 'PROFILE', erasedAt: '2026-11-27T00:00:00.000Z' }],
    },
  });
};
const nothingWritten = () => {
  expect(ddb.commandCalls(PutCommand)).toEqual([]);
  expect(ddb.commandCalls(TransactWriteCommand)).toEqual([]);
  expect(bus.commandCalls(PutEventsCommand)).toEqual([]);
};
const nothingTouched = () => {
  expect(ddb.calls()).toEqual([]);
  expect(bus.calls()).toEqual([]);
  expect(fetchCalls).toEqual([]);
};

/** The caller's window of a per-user limit is open and full (ADR 0072): the put and the spend both refused. */
const windowFull = () => {
  ddb
    .on(PutCommand, { TableName: 'submissions' })
    .rejects(conditionFailed({ resetAtMs: { N: String(Date.now() + 3_600_000) } }));
  ddb.on(UpdateCommand, { TableName: 'submissions' }).rejects(conditionFailed());
};
/** Past a per-user limit: only the limiter's window was touched; nothing written, sent or asked. */
const onlyTheWindowTouched = () => {
  for (const call of [...ddb.commandCalls(PutCommand), ...ddb.commandCalls(UpdateCommand)]) {
    const input = call.args[0].input as { Item?: { pk?: string }; Key?: { pk?: string } };
    expect(String(input.Item?.pk ?? input.Key?.pk)).toMatch(/^RATE#/);
  }
  expect(ddb.commandCalls(TransactWriteCommand)).toEqual([]);
  expect(bus.calls()).toEqual([]);
  expect(ses.calls()).toEqual([]);
  expect(fetchCalls).toEqual([]);
};

const withdrawalBody = JSON.stringify({ consent_type: 'identity_verification' });
const withdrawnConsent = {
  ...grantedConsent,
  action: 'withdrawn',
  sequence: 2,
  previousHash: 'a'.repeat(64),
};

// The organization's team (ADR 0084): its partition of the submissions table, read in one Query.
const ORG_PK = `ORGANIZATION#${ORG}`;
/** A colleague the records hold as a member (USER is the registrant: an admin without a member item). */
const COLLEAGUE = 'auth0|colleague-1';
/** Someone invited: their Auth0 invitation, their address, and their account once they accept. */
const INVITATION = 'uinv_0123456789abcdef';
const INVITEE_EMAIL = 'pat@customer.test';
const INVITEE = 'auth0|invitee-1';
const DAY_MS = 24 * 60 * 60 * 1000;
const organizationItem = {
  pk: ORG_PK,
  sk: 'ORGANIZATION',
  organizationId: ORG,
  organizationType: 'defense',
  displayName: 'Helix Labs',
  registeredBy: USER,
  email: 'ada@customer.test',
  createdAt: '2026-11-20T00:00:00.000Z',
};
const memberItem = (userId: string, overrides: Record<string, unknown> = {}) => ({
  pk: ORG_PK,
  sk: `MEMBER#${userId}`,
  userId,
  email: 'sam@customer.test',
  memberRole: 'org_member',
  memberStatus: 'active',
  emailVerified: true,
  joinedAt: '2026-11-21T00:00:00.000Z',
  ...overrides,
});
/** A pending invitation, sent yesterday: six days of its link left. */
const invitationItem = (overrides: Record<string, unknown> = {}) => ({
  pk: ORG_PK,
  sk: `INVITATION#${INVITEE_EMAIL}`,
  invitationId: INVITATION,
  email: INVITEE_EMAIL,
  invitationRole: 'org_member',
  invitationStatus: 'pending',
  invitedBy: USER,
  invitedAt: new Date(Date.now() - DAY_MS).toISOString(),
  invitationExpiresAt: new Date(Date.now() + 6 * DAY_MS).toISOString(),
  ...overrides,
});
// The organization's service requests (ADR 0088): its record (a defense organization) read for its
// type and name; the request stored in its own partition.
const serviceRequestEvent = (
  who: Record<string, JwtClaimValue> = orgMember(ORG, ['org_member']),
  action = 'threat-scan',
) => ({
  claims: claims(who),
  pathParameters: { organizationId: ORG },
  body: JSON.stringify({ action }),
});
const organizationRecorded = () =>
  ddb
    .on(GetCommand, { TableName: 'submissions', Key: { pk: ORG_PK, sk: 'ORGANIZATION' } })
    .resolves({ Item: organizationItem });
/** The caller's member item says an `org_admin` removed them (ADR 0084). */
const memberRemoved = () =>
  ddb
    .on(GetCommand, { TableName: 'submissions', Key: { pk: ORG_PK, sk: `MEMBER#${USER}` } })
    .resolves({ Item: memberItem(USER, { memberStatus: 'removed' }) });
/** The organization's partition: its record and these items. */
const team = (...items: Record<string, unknown>[]) =>
  ddb.on(QueryCommand, { TableName: 'submissions' }).resolves({ Items: [organizationItem, ...items] });
/** The caller's own verification is approved (inviting needs it). */
const callerApproved = () =>
  ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'approved' }) });
/** Auth0's answers to the team's changes; `first` ones win (a prefix matched earlier). */
const auth0Team = (first: [prefix: string, answer: Answer][] = []) => {
  remote = [
    ...first,
    [
      'GET tenant.test/api/v2/roles',
      {
        status: 200,
        body: [
          { id: 'rol_org_admin', name: 'org_admin' },
          { id: 'rol_org_member', name: 'org_member' },
        ],
      },
    ],
    [
      `POST tenant.test/api/v2/organizations/${ORG}/invitations`,
      {
        status: 201,
        body: {
          id: 'uinv_new',
          organization_id: ORG,
          invitation_url: `https://app.platform.test/auth/login?invitation=t&organization=${ORG}`,
          created_at: new Date().toISOString(),
          expires_at: new Date(Date.now() + 7 * DAY_MS).toISOString(),
        },
      },
    ],
    [`POST tenant.test/api/v2/organizations/${ORG}/members/`, { status: 204 }],
    [`DELETE tenant.test/api/v2/organizations/${ORG}/`, { status: 204 }],
  ];
};
/** The team refused before any change: nothing written (the limiter's windows neither), Auth0 not asked. */
const teamUnchanged = () => {
  nothingWritten();
  expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
  expect(fetchCalls).toEqual([]);
};
/** The management API's calls (the token's fetch aside). */
const auth0Calls = () => fetchCalls.filter((call) => call.includes('/api/v2/'));
/** The recipient's three a day are spent (ADR 0084); the inviter's budget has room. */
const recipientBudgetSpent = (email: string) => {
  const { pk } = rateLimitKey('organization-invitation-email', recipientKey(email));
  ddb.on(UpdateCommand, { Key: { pk } } as never).rejects(conditionFailed());
  ddb
    .on(PutCommand, { Item: { pk } } as never)
    .rejects(conditionFailed({ resetAtMs: { N: String(Date.now() + 3_600_000) } }));
};
/** The transaction cancelled because the invitee's profile belongs to another organization (index 2). */
const profileConditionFailed = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [
      { Code: 'None' },
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed' },
      { Code: 'None' },
    ],
  });

type TeamRoute =
  | 'ListOrganizationTeam'
  | 'CreateOrganizationInvitation'
  | 'ResendOrganizationInvitation'
  | 'RevokeOrganizationInvitation'
  | 'ChangeOrganizationMemberRole'
  | 'RemoveOrganizationMember';
/** Each admin route's request, from a caller the token and the records say it is about. */
const teamRequests: Record<TeamRoute, { body?: string; pathParameters?: Record<string, string> }> = {
  ListOrganizationTeam: {},
  CreateOrganizationInvitation: { body: JSON.stringify({ email: INVITEE_EMAIL, role: 'org_member' }) },
  ResendOrganizationInvitation: { pathParameters: { invitationId: INVITATION } },
  RevokeOrganizationInvitation: { pathParameters: { invitationId: INVITATION } },
  ChangeOrganizationMemberRole: {
    pathParameters: { userId: COLLEAGUE },
    body: JSON.stringify({ role: 'org_admin' }),
  },
  RemoveOrganizationMember: { pathParameters: { userId: COLLEAGUE } },
};
const teamEvent = (
  id: TeamRoute,
  who: Record<string, JwtClaimValue | undefined> = orgMember(ORG),
  request: { body?: string; pathParameters?: Record<string, string> } = {},
) => {
  const { body, pathParameters } = { ...teamRequests[id], ...request };
  return {
    claims: claims(who),
    ...(body === undefined ? {} : { body }),
    pathParameters: { organizationId: ORG, ...teamRequests[id].pathParameters, ...pathParameters },
  };
};
/** Refused the same way on every admin route of the team, before Auth0 or a write. */
const teamAccessScenarios = (Object.keys(teamRequests) as TeamRoute[]).flatMap((id): Scenario[] => [
  {
    route: id,
    name: 'a token for another organization',
    expected: 'organizationMismatch',
    event: teamEvent(id, orgMember('org_other')),
    after: nothingTouched,
  },
  {
    route: id,
    name: 'a member of the organization with no role in it',
    expected: 'organizationRoleRequired',
    event: teamEvent(id, orgMember(ORG, [])),
    after: nothingTouched,
  },
  {
    route: id,
    name: "an org_admin's token of someone the records hold no membership of (not the registrant)",
    expected: 'organizationRoleRequired',
    arrange: () => team(memberItem(COLLEAGUE, { memberRole: 'org_admin' })),
    event: teamEvent(id, { sub: 'auth0|stranger', ...orgMember(ORG) }),
    after: teamUnchanged,
  },
  {
    route: id,
    name: 'an organization the product holds no record of',
    expected: 'organizationNotFound',
    event: teamEvent(id),
    after: teamUnchanged,
  },
  {
    route: id,
    name: 'an admin removed from the organization (their token still names it)',
    expected: 'organizationMembershipEnded',
    arrange: () =>
      team(
        memberItem(COLLEAGUE, {
          memberRole: 'org_admin',
          memberStatus: 'removed',
          removedAt: '2026-11-26T00:00:00.000Z',
          removedBy: USER,
        }),
        invitationItem(),
      ),
    event: teamEvent(id, { sub: COLLEAGUE, ...orgMember(ORG) }),
    after: teamUnchanged,
  },
]);
/** The invitee's token after accepting: signed in through the organization, their address verified. */
const invitee = (overrides: Record<string, JwtClaimValue | undefined> = {}) =>
  claims({
    sub: INVITEE,
    [`${NAMESPACE}email`]: INVITEE_EMAIL,
    ...orgMember(ORG, ['org_member']),
    ...overrides,
  });
const joinEvent = (who: Record<string, JwtClaimValue> = invitee()) => ({
  claims: who,
  pathParameters: { organizationId: ORG },
});

const specific: Scenario[] = [
  {
    route: 'WithdrawConsent',
    name: 'a caller who never gave consent',
    expected: 'consentNotActive',
    event: { body: withdrawalBody },
    after: () => {
      nothingWritten();
      expect(fetchCalls).toEqual([]);
    },
  },
  {
    route: 'WithdrawConsent',
    name: 'a caller who withdrew already',
    expected: 'consentNotActive',
    event: { body: withdrawalBody },
    arrange: () =>
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent, withdrawnConsent] }),
    after: () => {
      nothingWritten();
      expect(fetchCalls).toEqual([]);
    },
  },
  {
    route: 'WithdrawConsent',
    name: "a caller past the day's consents (the limit it shares with CreateConsent)",
    expected: 'rateLimited',
    event: { body: withdrawalBody },
    arrange: () => {
      windowFull();
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
    },
    after: onlyTheWindowTouched,
  },
  {
    route: 'WithdrawConsent',
    name: 'a chain another write keeps moving',
    expected: 'consentLedgerBusy',
    event: { body: withdrawalBody },
    arrange: () => {
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
      ddb.on(PutCommand, { TableName: 'ledger' }).rejects(conditionFailed());
    },
    after: () => expect(fetchCalls).toEqual([]),
  },
  {
    route: 'CreateConsent',
    name: "a caller past the day's consents",
    expected: 'rateLimited',
    event: { body: consentBody },
    arrange: windowFull,
    after: onlyTheWindowTouched,
  },
  {
    route: 'StartKycInquiry',
    name: "a caller past the hour's inquiry calls",
    expected: 'rateLimited',
    arrange: () => {
      windowFull();
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
    },
    after: onlyTheWindowTouched,
  },
  {
    route: 'CreateOwnDataDeletionRequest',
    name: "a caller past the day's deletion requests",
    expected: 'rateLimited',
    event: { body: '{}' },
    arrange: () => {
      windowFull();
      ddb.on(BatchGetCommand).resolves({
        Responses: {
          submissions: [
            { pk: `PROFILE#${USER}`, sk: 'PROFILE', userId: USER, email: 'ada@helix.example', name: 'Ada' },
          ],
        },
      });
    },
    after: () => {
      expect(ddb.commandCalls(PutCommand).map((c) => String(c.args[0].input.Item?.pk))).toEqual([
        expect.stringMatching(/^RATE#own-deletion-request#/),
      ]);
      expect(ses.calls()).toEqual([]);
    },
  },
  {
    route: 'CreateConsent',
    name: 'a caller whose email is not verified',
    expected: 'emailNotVerified',
    event: { body: consentBody, claims: claims(unverified) },
    after: nothingTouched,
  },
  {
    route: 'CreateConsent',
    name: 'a token minted before the email_verified claim existed',
    expected: 'emailNotVerified',
    event: { body: consentBody, claims: claims({ [`${NAMESPACE}email_verified`]: undefined }) },
    after: nothingTouched,
  },
  {
    route: 'CreateConsent',
    name: "another user's id in the body",
    expected: 'forbidden',
    event: { body: JSON.stringify({ ...JSON.parse(consentBody), user_id: 'auth0|someone-else' }) },
    after: nothingTouched,
  },
  {
    route: 'CreateConsent',
    name: 'a refused statement',
    expected: 'validation',
    event: { body: JSON.stringify({ ...JSON.parse(consentBody), biometric_data_consent: false }) },
    after: nothingTouched,
  },
  {
    route: 'CreateConsent',
    name: 'agreement to an old version of the text',
    expected: 'consentDocumentChanged',
    event: { body: JSON.stringify({ ...JSON.parse(consentBody), document_version: '1999-01-01' }) },
    after: nothingTouched,
  },
  {
    route: 'CreateConsent',
    name: 'a chain that stays contended',
    expected: 'consentLedgerBusy',
    arrange: () => ddb.on(PutCommand, { TableName: 'ledger' }).rejects(conditionFailed()),
    event: { body: consentBody },
  },
  {
    route: 'CreateConsent',
    name: 'DynamoDB failing',
    expected: 'internalError',
    arrange: () =>
      ddb
        .on(QueryCommand)
        .rejects(
          new DynamoDBServiceException({ name: 'InternalServerError', $fault: 'server', $metadata: {} }),
        ),
    event: { body: consentBody },
  },
  {
    route: 'StartKycInquiry',
    name: 'a caller whose email is not verified',
    expected: 'emailNotVerified',
    event: { claims: claims(unverified) },
    after: nothingTouched,
  },
  {
    route: 'StartKycInquiry',
    name: 'a caller without consent',
    expected: 'consentRequired',
    after: () => {
      nothingWritten();
      expect(fetchCalls).toEqual([]);
    },
  },
  {
    route: 'StartKycInquiry',
    name: 'a caller already approved',
    expected: 'identityAlreadyVerified',
    arrange: () => {
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'approved' }) });
    },
    after: () => expect(fetchCalls).toEqual([]),
  },
  {
    route: 'StartKycInquiry',
    name: 'a caller a reviewer rejected',
    expected: 'verificationClosed',
    arrange: () => {
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({
        Item: kycState({ status: 'rejected', decidedBy: 'admin' }),
      });
    },
    after: () => expect(fetchCalls).toEqual([]),
  },
  {
    route: 'StartKycInquiry',
    name: 'a concurrent request that recorded another inquiry',
    expected: 'concurrentChange',
    arrange: () => {
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
      ddb
        .on(GetCommand, { TableName: 'kyc' })
        .resolvesOnce({})
        .resolves({ Item: kycState({ status: 'not_started', inquiryId: 'inq_other', version: 1 }) });
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
      remote = [
        [
          'POST persona.test/api/v1/inquiries',
          {
            status: 201,
            body: {
              data: {
                type: 'inquiry',
                id: 'inq_new',
                attributes: { status: 'created', 'reference-id': USER },
              },
              meta: { 'session-token': 'session' },
            },
          },
        ],
      ];
    },
  },
  {
    route: 'StartKycInquiry',
    name: 'Persona failing',
    expected: 'verificationProviderUnavailable',
    arrange: () => {
      ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] });
      remote = [
        ['POST persona.test/api/v1/inquiries', { status: 500, body: { errors: [{ title: 'boom' }] } }],
      ];
    },
    // Nothing but the per-user limit's window, which the failure gives back (ADR 0072).
    after: () => {
      expect(ddb.commandCalls(PutCommand)).toEqual([]);
      // The window's spend, then its release.
      expect(
        ddb
          .commandCalls(UpdateCommand)
          .map((c) => [
            String(c.args[0].input.Key?.pk).split('#').slice(0, 2).join('#'),
            c.args[0].input.UpdateExpression,
          ]),
      ).toEqual([
        ['RATE#kyc-inquiry', 'ADD used :one'],
        ['RATE#kyc-inquiry', 'ADD used :minusOne'],
      ]);
      expect(ddb.commandCalls(TransactWriteCommand)).toEqual([]);
      expect(bus.commandCalls(PutEventsCommand)).toEqual([]);
    },
  },
  {
    route: 'GetMe',
    name: 'an account the product erased (its token still valid)',
    expected: 'accountNotFound',
    arrange: erasedProfile,
  },
  {
    route: 'GetOrganization',
    name: 'a token for another organization',
    expected: 'organizationMismatch',
    event: { claims: claims(orgMember('org_other')), pathParameters: { organizationId: ORG } },
    after: nothingTouched,
  },
  {
    route: 'GetOrganization',
    name: 'a token without org_id (a sign-in without the organization)',
    expected: 'organizationMismatch',
    event: { pathParameters: { organizationId: ORG } },
    after: nothingTouched,
  },
  {
    route: 'GetOrganization',
    name: 'a member of the organization with no role in it',
    expected: 'organizationRoleRequired',
    event: {
      claims: claims({ ...orgMember(ORG), [`${NAMESPACE}org_roles`]: [] }),
      pathParameters: { organizationId: ORG },
    },
    after: nothingTouched,
  },
  {
    route: 'GetOrganization',
    name: 'an organization the product holds no record of',
    expected: 'organizationNotFound',
    event: { claims: claims(orgMember(ORG)), pathParameters: { organizationId: ORG } },
  },
  {
    route: 'GetMe',
    name: 'a member their organization removed (their token still valid)',
    expected: 'organizationMembershipEnded',
    arrange: () =>
      ddb.on(BatchGetCommand).resolves({
        Responses: {
          submissions: [
            {
              pk: `PROFILE#${USER}`,
              sk: 'PROFILE',
              userId: USER,
              email: 'sam@customer.test',
              organizationId: ORG,
              organizationRole: 'org_member',
              organizationRemovedAt: '2026-11-26T00:00:00.000Z',
            },
          ],
        },
      }),
    after: () => {
      nothingWritten();
      expect(fetchCalls).toEqual([]);
    },
  },
  ...teamAccessScenarios,
  // The dashboards' quick actions as service requests (ADR 0088).
  {
    route: 'CreateServiceRequest',
    name: 'a token for another organization',
    expected: 'organizationMismatch',
    event: serviceRequestEvent(orgMember('org_other')),
    after: nothingTouched,
  },
  {
    route: 'CreateServiceRequest',
    name: 'a member of the organization with no role in it',
    expected: 'organizationRoleRequired',
    event: serviceRequestEvent(orgMember(ORG, [])),
    after: nothingTouched,
  },
  {
    route: 'CreateServiceRequest',
    name: 'a member their organization removed (their token still valid)',
    expected: 'organizationMembershipEnded',
    arrange: memberRemoved,
    event: serviceRequestEvent(),
    after: nothingWritten,
  },
  {
    route: 'ListServiceRequests',
    name: 'a member their organization removed (their token still valid)',
    expected: 'organizationMembershipEnded',
    arrange: memberRemoved,
    event: { claims: claims(orgMember(ORG, ['org_member'])), pathParameters: { organizationId: ORG } },
    after: nothingWritten,
  },
  {
    route: 'CreateServiceRequest',
    name: 'a member whose own verification is not approved',
    expected: 'organizationApprovalRequired',
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'pending' }) });
      organizationRecorded();
    },
    event: serviceRequestEvent(orgMember(ORG, ['org_member'])),
    after: () => {
      nothingWritten();
      expect(ses.calls()).toEqual([]);
    },
  },
  {
    route: 'CreateServiceRequest',
    name: 'an organization the product holds no record of',
    expected: 'organizationNotFound',
    arrange: callerApproved,
    event: serviceRequestEvent(),
    after: nothingWritten,
  },
  {
    route: 'CreateServiceRequest',
    name: "a quick action of the other segment's dashboard",
    expected: 'validation',
    arrange: () => {
      callerApproved();
      organizationRecorded();
    },
    event: serviceRequestEvent(orgMember(ORG), 'market-report'),
    after: nothingWritten,
  },
  {
    route: 'CreateServiceRequest',
    name: "a member past the day's 20 requests",
    expected: 'rateLimited',
    arrange: () => {
      callerApproved();
      organizationRecorded();
      windowFull();
    },
    event: serviceRequestEvent(),
    after: onlyTheWindowTouched,
  },
  {
    route: 'CreateServiceRequest',
    name: 'the bus refusing the event (the request stays stored, not queued)',
    expected: 'serviceUnavailable',
    arrange: () => {
      callerApproved();
      organizationRecorded();
      bus
        .on(PutEventsCommand)
        .resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'x' }] });
    },
    event: serviceRequestEvent(),
    after: () => {
      const marked = ddb
        .commandCalls(UpdateCommand)
        .filter((call) => String(call.args[0].input.Key?.pk).startsWith('SERVICE_REQUEST#'));
      expect(marked).toEqual([]);
    },
  },
  {
    route: 'ListServiceRequests',
    name: 'a token for another organization',
    expected: 'organizationMismatch',
    event: { claims: claims(orgMember('org_other')), pathParameters: { organizationId: ORG } },
    after: nothingTouched,
  },
  {
    route: 'ListServiceRequests',
    name: 'a member of the organization with no role in it',
    expected: 'organizationRoleRequired',
    event: { claims: claims(orgMember(ORG, [])), pathParameters: { organizationId: ORG } },
    after: nothingTouched,
  },
  {
    route: 'ListOrganizationTeam',
    name: 'a member whose record says org_member (their token still says org_admin)',
    expected: 'organizationRoleRequired',
    arrange: () =>
      team(
        memberItem(USER, { memberRole: 'org_member' }),
        memberItem(COLLEAGUE, { memberRole: 'org_admin' }),
      ),
    event: teamEvent('ListOrganizationTeam'),
    after: () => {
      teamUnchanged();
      // Refused before the members' KYC states are read.
      expect(ddb.commandCalls(BatchGetCommand)).toEqual([]);
    },
  },
  {
    route: 'CreateOrganizationInvitation',
    name: 'an org_admin whose own verification is not approved',
    expected: 'organizationApprovalRequired',
    arrange: () => {
      team();
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'pending' }) });
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: teamUnchanged,
  },
  {
    route: 'CreateOrganizationInvitation',
    name: "a member's address (the registrant's)",
    expected: 'alreadyMember',
    arrange: () => {
      team();
      callerApproved();
    },
    event: teamEvent('CreateOrganizationInvitation', orgMember(ORG), {
      body: JSON.stringify({ email: 'Ada@Customer.test', role: 'org_member' }),
    }),
    after: teamUnchanged,
  },
  {
    route: 'CreateOrganizationInvitation',
    name: 'an address with an open invitation',
    expected: 'invitationPending',
    arrange: () => {
      team(invitationItem());
      callerApproved();
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: teamUnchanged,
  },
  {
    route: 'CreateOrganizationInvitation',
    name: "an inviter past the day's 50 invitations",
    expected: 'rateLimited',
    arrange: () => {
      team();
      callerApproved();
      windowFull();
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: () => {
      onlyTheWindowTouched();
      // Refused on the inviter's budget: the recipient's was not spent.
      const windows = [...ddb.commandCalls(PutCommand), ...ddb.commandCalls(UpdateCommand)].map((c) => {
        const input = c.args[0].input as { Item?: { pk?: string }; Key?: { pk?: string } };
        return String(input.Item?.pk ?? input.Key?.pk);
      });
      expect(new Set(windows)).toEqual(new Set([`RATE#organization-invitation#${USER}`]));
    },
  },
  {
    route: 'CreateOrganizationInvitation',
    name: 'the address already sent its three invitations today (by another organization too)',
    expected: 'rateLimited',
    arrange: () => {
      team();
      callerApproved();
      recipientBudgetSpent(INVITEE_EMAIL);
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: onlyTheWindowTouched,
  },
  {
    route: 'CreateOrganizationInvitation',
    name: 'a record that keeps changing: the new Auth0 invitation is deleted again',
    expected: 'concurrentChange',
    arrange: () => {
      team();
      callerApproved();
      auth0Team();
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(auth0Calls().filter((call) => !call.startsWith('GET '))).toEqual([
        `POST tenant.test/api/v2/organizations/${ORG}/invitations`,
        `DELETE tenant.test/api/v2/organizations/${ORG}/invitations/uinv_new`,
      ]);
    },
  },
  {
    route: 'CreateOrganizationInvitation',
    name: "Auth0 refusing the invitation: the recipient's and the inviter's budgets given back",
    expected: 'identityProviderUnavailable',
    arrange: () => {
      team();
      callerApproved();
      auth0Team([[`POST tenant.test/api/v2/organizations/${ORG}/invitations`, auth0Down]]);
    },
    event: teamEvent('CreateOrganizationInvitation'),
    after: () => {
      nothingWritten();
      expect(
        ddb
          .commandCalls(UpdateCommand)
          .map((c) => [String(c.args[0].input.Key?.pk).split('#')[1], c.args[0].input.UpdateExpression]),
      ).toEqual([
        ['organization-invitation', 'ADD used :one'],
        ['organization-invitation-email', 'ADD used :one'],
        ['organization-invitation-email', 'ADD used :minusOne'],
        ['organization-invitation', 'ADD used :minusOne'],
      ]);
    },
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'an org_admin whose own verification is not approved',
    expected: 'organizationApprovalRequired',
    arrange: () => team(invitationItem()),
    event: teamEvent('ResendOrganizationInvitation'),
    after: teamUnchanged,
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'an invitation id the organization does not hold',
    expected: 'invitationNotFound',
    arrange: () => {
      team(invitationItem());
      callerApproved();
    },
    event: teamEvent('ResendOrganizationInvitation', orgMember(ORG), {
      pathParameters: { invitationId: 'uinv_unknown' },
    }),
    after: teamUnchanged,
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'an invitation already revoked',
    expected: 'invitationNotFound',
    arrange: () => {
      team(invitationItem({ invitationStatus: 'revoked', closedAt: '2026-11-26T00:00:00.000Z' }));
      callerApproved();
    },
    event: teamEvent('ResendOrganizationInvitation'),
    after: teamUnchanged,
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'the address already sent its three invitations today',
    expected: 'rateLimited',
    arrange: () => {
      team(invitationItem());
      callerApproved();
      recipientBudgetSpent(INVITEE_EMAIL);
    },
    event: teamEvent('ResendOrganizationInvitation'),
    // The old link still works: nothing deleted at Auth0.
    after: onlyTheWindowTouched,
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'a record that keeps changing: the new Auth0 invitation is deleted again',
    expected: 'concurrentChange',
    arrange: () => {
      team(invitationItem());
      callerApproved();
      auth0Team();
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: teamEvent('ResendOrganizationInvitation'),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(auth0Calls().filter((call) => !call.startsWith('GET '))).toEqual([
        `DELETE tenant.test/api/v2/organizations/${ORG}/invitations/${INVITATION}`,
        `POST tenant.test/api/v2/organizations/${ORG}/invitations`,
        `DELETE tenant.test/api/v2/organizations/${ORG}/invitations/uinv_new`,
      ]);
    },
  },
  {
    route: 'ResendOrganizationInvitation',
    name: 'Auth0 refusing to delete the old invitation: no second link',
    expected: 'identityProviderUnavailable',
    arrange: () => {
      team(invitationItem());
      callerApproved();
      auth0Team([[`DELETE tenant.test/api/v2/organizations/${ORG}/invitations/`, auth0Down]]);
    },
    event: teamEvent('ResendOrganizationInvitation'),
    after: () => {
      nothingWritten();
      expect(auth0Calls()).toEqual([
        `DELETE tenant.test/api/v2/organizations/${ORG}/invitations/${INVITATION}`,
      ]);
      expect(ddb.commandCalls(UpdateCommand).at(-1)?.args[0].input.UpdateExpression).toBe(
        'ADD used :minusOne',
      );
    },
  },
  {
    route: 'RevokeOrganizationInvitation',
    name: 'an invitation id the organization does not hold',
    expected: 'invitationNotFound',
    arrange: () => team(invitationItem()),
    event: teamEvent('RevokeOrganizationInvitation', orgMember(ORG), {
      pathParameters: { invitationId: 'uinv_unknown' },
    }),
    after: teamUnchanged,
  },
  {
    route: 'RevokeOrganizationInvitation',
    name: 'an invitation already accepted',
    expected: 'invitationNotFound',
    arrange: () =>
      team(invitationItem({ invitationStatus: 'accepted', closedAt: '2026-11-26T00:00:00.000Z' })),
    event: teamEvent('RevokeOrganizationInvitation'),
    after: teamUnchanged,
  },
  {
    route: 'RevokeOrganizationInvitation',
    name: 'a record that keeps changing (Auth0 asked once)',
    expected: 'concurrentChange',
    arrange: () => {
      team(invitationItem());
      auth0Team();
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: teamEvent('RevokeOrganizationInvitation'),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(auth0Calls()).toEqual([
        `DELETE tenant.test/api/v2/organizations/${ORG}/invitations/${INVITATION}`,
      ]);
    },
  },
  {
    route: 'RevokeOrganizationInvitation',
    name: 'Auth0 refusing the delete: the invitation stays pending',
    expected: 'identityProviderUnavailable',
    arrange: () => {
      team(invitationItem());
      auth0Team([[`DELETE tenant.test/api/v2/organizations/${ORG}/invitations/`, auth0Down]]);
    },
    event: teamEvent('RevokeOrganizationInvitation'),
    after: () => {
      nothingWritten();
      expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
    },
  },
  {
    route: 'ChangeOrganizationMemberRole',
    name: 'a user id that is not a member',
    expected: 'memberNotFound',
    arrange: () => team(memberItem(COLLEAGUE)),
    event: teamEvent('ChangeOrganizationMemberRole', orgMember(ORG), {
      pathParameters: { userId: 'auth0|nobody' },
    }),
    after: teamUnchanged,
  },
  {
    route: 'ChangeOrganizationMemberRole',
    name: 'a removed member',
    expected: 'memberNotFound',
    arrange: () => team(memberItem(COLLEAGUE, { memberStatus: 'removed' })),
    event: teamEvent('ChangeOrganizationMemberRole'),
    after: teamUnchanged,
  },
  {
    route: 'ChangeOrganizationMemberRole',
    name: 'the only admin (the registrant) demoting themselves',
    expected: 'lastOrganizationAdmin',
    arrange: () => team(memberItem(COLLEAGUE)),
    event: teamEvent('ChangeOrganizationMemberRole', orgMember(ORG), {
      pathParameters: { userId: USER },
      body: JSON.stringify({ role: 'org_member' }),
    }),
    after: teamUnchanged,
  },
  {
    route: 'ChangeOrganizationMemberRole',
    name: 'a record that keeps changing (Auth0 asked once)',
    expected: 'concurrentChange',
    arrange: () => {
      team(memberItem(COLLEAGUE));
      auth0Team();
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: teamEvent('ChangeOrganizationMemberRole'),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(auth0Calls().filter((call) => !call.startsWith('GET '))).toEqual([
        `POST tenant.test/api/v2/organizations/${ORG}/members/${encodeURIComponent(COLLEAGUE)}/roles`,
        `DELETE tenant.test/api/v2/organizations/${ORG}/members/${encodeURIComponent(COLLEAGUE)}/roles`,
      ]);
    },
  },
  {
    route: 'ChangeOrganizationMemberRole',
    name: "Auth0 refusing the member's new role",
    expected: 'identityProviderUnavailable',
    arrange: () => {
      team(memberItem(COLLEAGUE));
      auth0Team([[`POST tenant.test/api/v2/organizations/${ORG}/members/`, auth0Down]]);
    },
    event: teamEvent('ChangeOrganizationMemberRole'),
    after: () => {
      nothingWritten();
      expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
    },
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'a user id that is not a member',
    expected: 'memberNotFound',
    arrange: () => team(memberItem(COLLEAGUE)),
    event: teamEvent('RemoveOrganizationMember', orgMember(ORG), {
      pathParameters: { userId: 'auth0|nobody' },
    }),
    after: teamUnchanged,
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'a member removed already',
    expected: 'memberNotFound',
    arrange: () => team(memberItem(COLLEAGUE, { memberStatus: 'removed' })),
    event: teamEvent('RemoveOrganizationMember'),
    after: teamUnchanged,
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'the only admin (the registrant) removing themselves',
    expected: 'lastOrganizationAdmin',
    arrange: () => team(memberItem(COLLEAGUE)),
    event: teamEvent('RemoveOrganizationMember', orgMember(ORG), { pathParameters: { userId: USER } }),
    after: teamUnchanged,
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'an admin removing themselves while another admin remains',
    expected: 'lastOrganizationAdmin',
    arrange: () => team(memberItem(COLLEAGUE, { memberRole: 'org_admin' })),
    event: teamEvent('RemoveOrganizationMember', { sub: COLLEAGUE, ...orgMember(ORG) }),
    after: teamUnchanged,
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'a record that keeps changing (Auth0 asked once)',
    expected: 'concurrentChange',
    arrange: () => {
      team(memberItem(COLLEAGUE));
      auth0Team();
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: teamEvent('RemoveOrganizationMember'),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(auth0Calls()).toEqual([`DELETE tenant.test/api/v2/organizations/${ORG}/members`]);
    },
  },
  {
    route: 'RemoveOrganizationMember',
    name: 'Auth0 refusing the removal: the member stays',
    expected: 'identityProviderUnavailable',
    arrange: () => {
      team(memberItem(COLLEAGUE));
      auth0Team([[`DELETE tenant.test/api/v2/organizations/${ORG}/members`, auth0Down]]);
    },
    event: teamEvent('RemoveOrganizationMember'),
    after: () => {
      nothingWritten();
      expect(ddb.commandCalls(UpdateCommand)).toEqual([]);
    },
  },
  {
    route: 'JoinOrganization',
    name: 'a token for another organization',
    expected: 'organizationMismatch',
    event: joinEvent(invitee(orgMember('org_other', ['org_member']))),
    after: nothingTouched,
  },
  {
    route: 'JoinOrganization',
    name: 'a token without org_id (a sign-in without the organization)',
    expected: 'organizationMismatch',
    event: joinEvent(invitee({ org_id: undefined, [`${NAMESPACE}org_roles`]: undefined })),
    after: nothingTouched,
  },
  {
    route: 'JoinOrganization',
    name: 'an organization the product holds no record of',
    expected: 'organizationNotFound',
    event: joinEvent(),
    after: teamUnchanged,
  },
  {
    route: 'JoinOrganization',
    name: 'an invitee whose address is not verified',
    expected: 'emailNotVerified',
    event: joinEvent(invitee(unverified)),
    after: nothingTouched,
  },
  {
    route: 'JoinOrganization',
    name: "no pending invitation for the token's address",
    expected: 'invitationNotFound',
    arrange: () =>
      team(invitationItem({ email: 'someone@customer.test', sk: 'INVITATION#someone@customer.test' })),
    event: joinEvent(),
    after: teamUnchanged,
  },
  {
    route: 'JoinOrganization',
    name: 'a revoked invitation',
    expected: 'invitationNotFound',
    arrange: () =>
      team(invitationItem({ invitationStatus: 'revoked', closedAt: '2026-11-26T00:00:00.000Z' })),
    event: joinEvent(),
    after: teamUnchanged,
  },
  {
    route: 'JoinOrganization',
    name: "a token with no organization role and no invitation (the records decide, not the token's roles)",
    expected: 'invitationNotFound',
    arrange: () =>
      team(invitationItem({ email: 'someone@customer.test', sk: 'INVITATION#someone@customer.test' })),
    event: joinEvent(invitee(orgMember(ORG, []))),
    after: teamUnchanged,
  },
  {
    route: 'JoinOrganization',
    name: 'a token without an address',
    expected: 'invitationNotFound',
    arrange: () => team(invitationItem()),
    event: joinEvent(invitee({ [`${NAMESPACE}email`]: undefined })),
    after: teamUnchanged,
  },
  {
    route: 'JoinOrganization',
    name: 'an account whose profile belongs to another organization',
    expected: 'alreadyMember',
    arrange: () => {
      team(invitationItem());
      ddb.on(TransactWriteCommand).rejects(profileConditionFailed());
    },
    event: joinEvent(),
    // Refused at once: not tried again as if it were a conflict.
    after: () => expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1),
  },
  {
    route: 'JoinOrganization',
    name: 'a record that keeps changing',
    expected: 'concurrentChange',
    arrange: () => {
      team(invitationItem());
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: joinEvent(),
    after: () => {
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
      expect(fetchCalls).toEqual([]);
    },
  },
  {
    route: 'SendVerificationEmail',
    name: 'a second request within the minute',
    event: { claims: claims(unverified) },
    expected: 'rateLimited',
    arrange: () => {
      ddb
        .on(PutCommand, { TableName: 'submissions' })
        .rejects(conditionFailed({ resetAtMs: { N: String(Date.now() + 45_000) } }));
    },
    after: () => expect(bus.commandCalls(PutEventsCommand)).toEqual([]),
  },
  {
    route: 'SendVerificationEmail',
    name: 'the bus refusing the queued send',
    event: { claims: claims(unverified) },
    expected: 'serviceUnavailable',
    arrange: () => bus.on(PutEventsCommand).rejects(new Error('bus down')),
  },
  {
    route: 'CreateRegistration',
    name: 'the bus refusing the event',
    expected: 'serviceUnavailable',
    arrange: () => bus.on(PutEventsCommand).rejects(new Error('bus down')),
    event: { body: registrationBody },
  },
  {
    route: 'CreateRegistration',
    name: 'DynamoDB not answering (the client gave up: tests/lambdas/adapters/dynamodb-client.test.ts)',
    expected: 'serviceUnavailable',
    arrange: () => ddb.on(PutCommand).rejects(new StorageUnavailableError('PutItemCommand')),
    event: { body: registrationBody },
    after: () => expect(bus.calls()).toEqual([]),
  },
  {
    route: 'ConfirmDataDeletionRequest',
    name: 'a token that is used, expired or wrong',
    expected: 'deletionConfirmationInvalid',
    arrange: () => {
      ddb.on(UpdateCommand, { TableName: 'submissions' }).rejects(conditionFailed());
    },
    event: { body: JSON.stringify({ token: `0b0e3c55-7a7e-4c8e-9d55-1f0f8f3c2a11.${'x'.repeat(43)}` }) },
  },
  {
    route: 'CreateOwnDataDeletionRequest',
    name: 'an unverified address',
    expected: 'emailNotVerified',
    event: { claims: claims(unverified), body: '{}' },
    after: nothingWritten,
  },
  {
    route: 'CreateOwnDataDeletionRequest',
    name: 'an account the product erased',
    expected: 'accountNotFound',
    arrange: erasedProfile,
    event: { body: '{}' },
    after: nothingWritten,
  },
  {
    route: 'ExportMyData',
    name: "a caller past the day's 5 exports",
    expected: 'rateLimited',
    arrange: () => {
      windowFull();
      ddb.on(BatchGetCommand).resolves({
        Responses: {
          submissions: [
            { pk: `PROFILE#${USER}`, sk: 'PROFILE', userId: USER, email: 'ada@helix.example', name: 'Ada' },
          ],
        },
      });
    },
    after: () => {
      onlyTheWindowTouched();
      // Nothing read past the profile: the limit comes before the export's reads.
      expect(ddb.commandCalls(QueryCommand)).toEqual([]);
    },
  },
  {
    route: 'ExportMyData',
    name: 'an account the product erased',
    expected: 'accountNotFound',
    arrange: erasedProfile,
    after: nothingWritten,
  },
  {
    route: 'CancelOwnDataDeletionRequest',
    name: 'an id that is not a request id',
    expected: 'deletionRequestNotFound',
    event: { pathParameters: { requestId: 'not-a-request' } },
    after: nothingTouched,
  },
  {
    route: 'CancelOwnDataDeletionRequest',
    name: "another person's request, or none pending",
    expected: 'deletionRequestNotFound',
    arrange: () => ddb.on(TransactWriteCommand).rejects(transactionConflict()),
    event: { pathParameters: { requestId: OWN_REQUEST } },
  },
  {
    route: 'CancelOwnDataDeletionRequest',
    name: 'a request the operator is carrying out',
    expected: 'deletionNotCancellable',
    arrange: () => {
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
      ddb
        .on(GetCommand, { Key: { pk: `DELETION#OWN#${USER}`, sk: 'PENDING' } })
        .resolves({ Item: { requestId: OWN_REQUEST } });
      ddb.on(GetCommand, { Key: { pk: `DELETION#${OWN_REQUEST}`, sk: 'REQUEST' } }).resolves({
        Item: { kind: 'deletion_request', requestId: OWN_REQUEST, userId: USER, status: 'in_progress' },
      });
    },
    event: { pathParameters: { requestId: OWN_REQUEST } },
  },
  {
    route: 'ReceivePersonaWebhook',
    name: 'a forged signature',
    expected: 'invalidSignature',
    event: {
      body: '{"data":{}}',
      headers: { 'persona-signature': `t=${Math.floor(Date.now() / 1000)},v1=00` },
    },
    after: nothingWritten,
  },
  {
    route: 'ReceivePersonaWebhook',
    name: 'a signed body that is not an event',
    expected: 'validation',
    event: { body: '{"data":{}}', headers: { 'persona-signature': signed('{"data":{}}') } },
    after: nothingWritten,
  },
  {
    route: 'ReceivePersonaWebhook',
    name: 'the bus refusing the event',
    expected: 'serviceUnavailable',
    arrange: () => bus.on(PutEventsCommand).rejects(new Error('bus down')),
    event: (() => {
      const body = JSON.stringify({
        data: {
          type: 'event',
          id: 'evt_1',
          attributes: {
            name: 'inquiry.approved',
            'created-at': '2026-11-21T06:00:00.000Z',
            payload: {
              data: {
                type: 'inquiry',
                id: 'inq_1',
                attributes: { status: 'approved', 'reference-id': USER },
              },
            },
          },
        },
      });
      return { body, headers: { 'persona-signature': signed(body) } };
    })(),
  },
  {
    route: 'ListVerifications',
    name: 'an unknown status filter',
    expected: 'validation',
    event: { claims: claims(admin), query: { status: 'everything' } },
    after: nothingTouched,
  },
  {
    route: 'DecideVerification',
    name: 'a user with no verification',
    expected: 'verificationNotFound',
    event: {
      claims: claims(admin),
      pathParameters: { userId: 'auth0|nobody' },
      body: JSON.stringify(decisionBody),
    },
    after: nothingWritten,
  },
  {
    route: 'DecideVerification',
    name: 'a user id longer than any account has (no table key could hold it)',
    expected: 'verificationNotFound',
    event: {
      claims: claims(admin),
      pathParameters: { userId: `auth0|${'\u{1D518}'.repeat(600)}` },
      body: JSON.stringify(decisionBody),
    },
    after: nothingTouched,
  },
  {
    route: 'DecideVerification',
    name: 'an admin deciding on their own verification',
    expected: 'ownVerification',
    event: {
      claims: claims({ [`${NAMESPACE}role`]: 'admin' }),
      pathParameters: { userId: USER },
      body: JSON.stringify(decisionBody),
    },
    after: nothingTouched,
  },
  {
    route: 'DecideVerification',
    name: 'a verification whose inquiry was never submitted',
    expected: 'verificationNotSubmitted',
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'not_started' }) });
    },
    event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(decisionBody) },
    after: nothingWritten,
  },
  {
    route: 'DecideVerification',
    name: 'four-eyes: the admin who proposed an approval of a defense organization confirming it',
    expected: 'secondReviewerRequired',
    arrange: () => {
      process.env.FOUR_EYES = 'true';
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({
        Item: kycState({
          proposal: {
            decision: 'approved',
            reasonCode: 'identity_confirmed',
            reason: null,
            adminId: admin.sub,
            at: '2026-11-20T01:00:00.000Z',
            fromStatus: 'pending',
          },
        }),
      });
      ddb.on(BatchGetCommand).resolves({
        Responses: {
          submissions: [
            {
              pk: `REGISTRATION#${USER}`,
              sk: 'REGISTRATION',
              userId: USER,
              organizationType: 'defense',
              organizationName: 'Northwatch',
            },
          ],
        },
      });
    },
    event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(decisionBody) },
    after: nothingWritten,
  },
  {
    route: 'DecideVerification',
    name: 'a record that keeps changing',
    expected: 'concurrentChange',
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState() });
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: {
      claims: claims(admin),
      pathParameters: { userId: USER },
      body: JSON.stringify(decisionBody),
    },
  },
  {
    route: 'AllowVerificationAttempt',
    name: 'an admin allowing themselves a new attempt',
    expected: 'ownVerification',
    event: {
      claims: claims({ [`${NAMESPACE}role`]: 'admin' }),
      pathParameters: { userId: USER },
      body: JSON.stringify(newAttemptBody),
    },
    after: nothingTouched,
  },
  {
    route: 'GetVerificationEvidence',
    name: 'a user with no verification',
    expected: 'verificationNotFound',
    event: { claims: claims(admin), pathParameters: { userId: 'auth0|nobody' } },
    after: () => {
      nothingWritten();
      expect(fetchCalls).toEqual([]);
    },
  },
  {
    route: 'GetVerificationEvidence',
    name: 'a user whose state names no inquiry',
    expected: 'verificationNotFound',
    event: { claims: claims(admin), pathParameters: { userId: USER } },
    arrange: () =>
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ inquiryId: undefined }) }),
    after: () => expect(fetchCalls).toEqual([]),
  },
  {
    route: 'GetVerificationEvidence',
    name: 'Persona failing',
    expected: 'verificationProviderUnavailable',
    event: { claims: claims(admin), pathParameters: { userId: USER } },
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({}) });
      remote = [
        ['GET persona.test/api/v1/inquiries/inq_1', { status: 500, body: { errors: [{ title: 'boom' }] } }],
      ];
    },
    after: nothingWritten,
  },
  {
    route: 'AllowVerificationAttempt',
    name: 'a user with no verification',
    expected: 'verificationNotFound',
    event: {
      claims: claims(admin),
      pathParameters: { userId: 'auth0|nobody' },
      body: JSON.stringify(newAttemptBody),
    },
    after: nothingWritten,
  },
  {
    route: 'AllowVerificationAttempt',
    name: 'a verification that is not rejected',
    expected: 'verificationNotRejected',
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'pending' }) });
    },
    event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(newAttemptBody) },
    after: nothingWritten,
  },
  {
    route: 'AllowVerificationAttempt',
    name: 'a person who used every attempt',
    expected: 'attemptsExhausted',
    arrange: () => {
      ddb
        .on(GetCommand, { TableName: 'kyc' })
        .resolves({ Item: kycState({ status: 'rejected', decidedBy: 'admin', attempt: 3 }) });
    },
    event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(newAttemptBody) },
    after: nothingWritten,
  },
  {
    route: 'AllowVerificationAttempt',
    name: 'a record that keeps changing',
    expected: 'concurrentChange',
    arrange: () => {
      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({ status: 'rejected' }) });
      ddb.on(TransactWriteCommand).rejects(transactionConflict());
    },
    event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(newAttemptBody) },
  },
];

/** The problems every route's shape implies, produced the same way for each route that has them. */
function shapeScenarios(route: RouteDef): Scenario[] {
  const id = route.id as RouteId;
  const names = routeProblemNames(route);
  const scenarios: Scenario[] = [];
  const base = route.auth === 'admin' ? { claims: claims(admin) } : {};
  if (names.includes('originNotVerified')) {
    for (const [name, value] of [
      ['a direct call to the API origin (no origin secret)', ''],
      ['a guessed origin secret', 'origin-secret-of-someone-guessing'],
    ] as const) {
      scenarios.push({
        route: id,
        name,
        expected: 'originNotVerified',
        event: { ...base, headers: { 'x-origin-verify': value } },
        after: nothingTouched,
      });
    }
  }
  if (names.includes('unauthorized')) {
    scenarios.push({
      route: id,
      name: 'no verified claims',
      expected: 'unauthorized',
      event: { claims: null },
      after: nothingTouched,
    });
  }
  if (names.includes('adminRequired')) {
    scenarios.push({
      route: id,
      name: 'a signed-in user without the admin role',
      expected: 'adminRequired',
      event: { claims: claims(), body: '{}' },
      after: nothingTouched,
    });
  }
  if (names.includes('payloadTooLarge')) {
    scenarios.push({
      route: id,
      name: `a body over its ${maxBodyBytesOf(route) / 1024} KiB`,
      expected: 'payloadTooLarge',
      event: { ...base, body: JSON.stringify({ padding: 'x'.repeat(maxBodyBytesOf(route)) }) },
      after: nothingTouched,
    });
  }
  if (names.includes('unsupportedMediaType')) {
    scenarios.push({
      route: id,
      name: 'a body that is not JSON',
      expected: 'unsupportedMediaType',
      event: { ...base, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      after: nothingTouched,
    });
  }
  if (names.includes('validation') && route.body && route.auth !== 'persona-signature') {
    scenarios.push({
      route: id,
      name: 'a field nobody may set',
      expected: 'validation',
      event: { ...base, body: JSON.stringify({ app_metadata: { role: 'admin' } }) },
      after: nothingTouched,
    });
  }
  return scenarios;
}

const scenarios = [...specific, ...routes.flatMap(shapeScenarios)];
const produced = new Map<string, Set<ProblemName>>();

describe('every problem a handler answers is one its route lists in the OpenAPI document', () => {
  it.each(scenarios.map((s) => [s.route, s.name, s] as const))('%s: %s', async (_route, _name, scenario) => {
    scenario.arrange?.();
    const route = routeOf(scenario.route);
    const handler = handlers.get(route.id);
    if (!handler) throw new Error(`no handler for ${route.id}`);
    const result = await handler(await eventFor(route, scenario.event), lambdaContext);
    const body = parse(result.body);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(body.type).toBe(problemTypes[scenario.expected]);
    expect(body.status).toBe(result.statusCode);
    expect(documented(route, result.statusCode)).toContain(body.type);
    // Every text for people in it has its German (issue 28, #contracts/messages-de.ts).
    const texts: unknown[] = [
      body.title,
      body.detail,
      ...((body.errors ?? []) as Array<{ message: unknown }>).map((error) => error.message),
    ];
    expect(texts.filter((text) => typeof text === 'string' && !hasGermanMessage(text))).toEqual([]);
    expect(callsDenied(route)).toEqual([]);
    scenario.after?.();
    produced.set(route.id, new Set([...(produced.get(route.id) ?? []), scenario.expected]));
  });

  it.each(routes.map((route) => [route.id, route] as const))(
    '%s lists only problems a scenario above produced',
    (_id, route) => {
      const listed = routeProblemNames(route);
      // Every route can fail unexpectedly; the 500 is listed everywhere and not forced on each.
      const expected = listed.filter((name) => name !== 'internalError');
      expect([...(produced.get(route.id) ?? [])].filter((name) => name !== 'internalError').sort()).toEqual(
        expected.sort(),
      );
    },
  );
});

describe('the Retry-After of each kind comes from the one table', () => {
  it("answers the signed-in routes without Auth0's Management API, even while it refuses every call (ADR 0059)", async () => {
    remote = [
      ['GET tenant.test/api/v2/', auth0Down],
      ['POST tenant.test/api/v2/', auth0Down],
    ];
    const withEmail = claims({ [`${NAMESPACE}email`]: 'ada@helix.example', ...unverified });
    const answers = await Promise.all(
      (['GetMe', 'SendVerificationEmail', 'CreateOwnDataDeletionRequest'] as const).map(async (id) => {
        const route = routeOf(id);
        const event = await eventFor(route, {
          claims:
            id === 'CreateOwnDataDeletionRequest'
              ? claims({ [`${NAMESPACE}email`]: 'ada@helix.example' })
              : withEmail,
          ...(id === 'CreateOwnDataDeletionRequest' ? { body: '{}' } : {}),
        });
        return (await handlers.get(id)?.(event, lambdaContext))?.statusCode;
      }),
    );
    expect(answers).toEqual([200, 202, 202]);
    expect(fetchCalls.filter((call) => call.includes('/api/v2/') || call.includes('/oauth/token'))).toEqual(
      [],
    );
  });

  it('asks for 5 seconds when DynamoDB is not answering', async () => {
    ddb.on(PutCommand).rejects(new StorageUnavailableError('PutItemCommand'));
    const route = routeOf('CreateRegistration');
    const result = await handlers.get(route.id)?.(
      await eventFor(route, { body: registrationBody }),
      lambdaContext,
    );
    expect(result?.statusCode).toBe(503);
    expect(result?.headers?.['retry-after']).toBe('5');
  });

  it('tells a rate-limited caller how much of the minute is left', async () => {
    ddb
      .on(PutCommand, { TableName: 'submissions' })
      .rejects(conditionFailed({ resetAtMs: { N: String(Date.now() + 44_500) } }));
    const route = routeOf('SendVerificationEmail');
    const result = await handlers.get(route.id)?.(
      await eventFor(route, { claims: claims(unverified) }),
      lambdaContext,
    );
    expect(result?.statusCode).toBe(429);
    expect(result?.headers?.['retry-after']).toBe('45');
  });
});

describe("a handler's DynamoDB calls are ones its grants allow (ADR 0072)", () => {
  const ownProfile = () =>
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        submissions: [
          { pk: `PROFILE#${USER}`, sk: 'PROFILE', userId: USER, email: 'ada@helix.example', name: 'Ada' },
        ],
      },
    });
  const successes: {
    route: RouteId;
    status: number;
    event?: Parameters<typeof eventFor>[1];
    arrange?: () => void;
  }[] = [
    {
      route: 'CreateDataDeletionRequest',
      status: 202,
      event: { body: JSON.stringify({ email: 'a@b.test' }) },
    },
    {
      route: 'CreateDataDeletionRequest',
      status: 202,
      event: { body: JSON.stringify({ email: 'a@b.test' }) },
      // A window already open: the limiter adds to it.
      arrange: () =>
        ddb
          .on(PutCommand, { TableName: 'submissions', Item: { sk: 'RATE' } as never })
          .rejects(conditionFailed({ resetAtMs: { N: String(Date.now() + 60_000) } })),
    },
    {
      route: 'ConfirmDataDeletionRequest',
      status: 200,
      event: { body: JSON.stringify({ token: `0b0e3c55-7a7e-4c8e-9d55-1f0f8f3c2a11.${'x'.repeat(43)}` }) },
      arrange: () => ddb.on(UpdateCommand).resolves({ Attributes: { requestId: 'r' } }),
    },
    { route: 'CreateOwnDataDeletionRequest', status: 202, event: { body: '{}' }, arrange: ownProfile },
    { route: 'CreateConsent', status: 201, event: { body: consentBody } },
    {
      // A consent naming its language: the record and the profile's language choice in one
      // transaction (issue 28).
      route: 'CreateConsent',
      status: 201,
      event: { body: JSON.stringify({ ...JSON.parse(consentBody), locale: 'de' }) },
      arrange: () =>
        ddb.on(TransactWriteCommand).callsFake((input: { TransactItems: unknown[] }) => {
          expect(input.TransactItems).toHaveLength(2);
          return {};
        }),
    },
    {
      route: 'WithdrawConsent',
      status: 201,
      event: { body: withdrawalBody },
      arrange: () => ddb.on(QueryCommand, { TableName: 'ledger' }).resolves({ Items: [grantedConsent] }),
    },
    { route: 'SendVerificationEmail', status: 202, event: { claims: claims(unverified) } },
    {
      // The state read, the trail's head queried, and the decision and its trail entry in one transaction.
      route: 'DecideVerification',
      status: 200,
      event: { claims: claims(admin), pathParameters: { userId: USER }, body: JSON.stringify(decisionBody) },
      arrange: () => ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({}) }),
    },
    {
      route: 'GetVerificationAuditTrail',
      status: 200,
      event: { claims: claims(admin), pathParameters: { userId: USER } },
    },
    {
      route: 'GetVerificationEvidence',
      status: 200,
      event: { claims: claims(admin), pathParameters: { userId: USER } },
      arrange: () => {
        ddb.on(GetCommand, { TableName: 'kyc' }).resolves({ Item: kycState({}) });
        remote = [['GET persona.test/api/v1/inquiries/inq_1', personaInquiryWithChecks]];
      },
    },
    {
      // The organization's own item only (ADR 0083).
      route: 'GetOrganization',
      status: 200,
      event: { claims: claims(orgMember(ORG)), pathParameters: { organizationId: ORG } },
      arrange: () =>
        ddb.on(GetCommand, { TableName: 'submissions' }).resolves({
          Item: {
            pk: `ORGANIZATION#${ORG}`,
            sk: 'ORGANIZATION',
            organizationId: ORG,
            displayName: 'Helix Labs',
            organizationType: 'defense',
            registeredBy: USER,
            createdAt: '2026-11-27T00:00:00.000Z',
          },
        }),
    },
    {
      // The partition's Query and the members' KYC states (one BatchGetItem); never Auth0 (ADR 0084).
      route: 'ListOrganizationTeam',
      status: 200,
      event: teamEvent('ListOrganizationTeam'),
      arrange: () => team(memberItem(COLLEAGUE), invitationItem()),
    },
    {
      // The caller's KYC state, both budgets' windows, then the invitation item and its trail entry.
      route: 'CreateOrganizationInvitation',
      status: 201,
      event: teamEvent('CreateOrganizationInvitation'),
      arrange: () => {
        team(invitationItem({ invitationStatus: 'revoked' }));
        callerApproved();
        auth0Team();
      },
    },
    {
      route: 'ResendOrganizationInvitation',
      status: 201,
      event: teamEvent('ResendOrganizationInvitation'),
      arrange: () => {
        team(invitationItem());
        callerApproved();
        auth0Team();
      },
    },
    {
      route: 'RevokeOrganizationInvitation',
      status: 200,
      event: teamEvent('RevokeOrganizationInvitation'),
      arrange: () => {
        team(invitationItem());
        auth0Team();
      },
    },
    {
      // The member item, the member's profile and the trail entry in one transaction.
      route: 'ChangeOrganizationMemberRole',
      status: 200,
      event: teamEvent('ChangeOrganizationMemberRole'),
      arrange: () => {
        team(memberItem(COLLEAGUE));
        auth0Team();
      },
    },
    {
      // The registrant demoted by another admin: their first member item is written.
      route: 'ChangeOrganizationMemberRole',
      status: 200,
      event: teamEvent(
        'ChangeOrganizationMemberRole',
        { sub: COLLEAGUE, ...orgMember(ORG) },
        {
          pathParameters: { userId: USER },
          body: JSON.stringify({ role: 'org_member' }),
        },
      ),
      arrange: () => {
        team(memberItem(COLLEAGUE, { memberRole: 'org_admin' }));
        auth0Team();
      },
    },
    {
      route: 'RemoveOrganizationMember',
      status: 200,
      event: teamEvent('RemoveOrganizationMember'),
      arrange: () => {
        team(memberItem(COLLEAGUE));
        auth0Team();
      },
    },
    {
      // The caller's KYC state, the organization's record, the window, the request put, the event
      // and the request marked queued (ADR 0088).
      route: 'CreateServiceRequest',
      status: 202,
      event: serviceRequestEvent(),
      arrange: () => {
        callerApproved();
        organizationRecorded();
      },
    },
    {
      // The organization's open request for the action: read and answered, not a second one.
      route: 'CreateServiceRequest',
      status: 202,
      event: serviceRequestEvent(),
      arrange: () => {
        callerApproved();
        organizationRecorded();
        ddb
          .on(PutCommand, { TableName: 'submissions', Item: { sk: 'threat-scan' } as never })
          .rejects(conditionFailed());
        ddb.on(GetCommand, { TableName: 'submissions', Key: { sk: 'threat-scan' } as never }).resolves({
          Item: {
            pk: `SERVICE_REQUEST#${ORG}`,
            sk: 'threat-scan',
            requestId: 'r-1',
            status: 'received',
            requestedAt: '2026-11-27T00:00:00.000Z',
            answerBy: '2026-12-01',
            organizationId: ORG,
            organizationName: 'Helix Labs',
            organizationType: 'defense',
            requestedBy: COLLEAGUE,
            queued: true,
          },
        });
      },
    },
    {
      route: 'ListServiceRequests',
      status: 200,
      event: { claims: claims(orgMember(ORG, ['org_member'])), pathParameters: { organizationId: ORG } },
    },
    {
      // The invitation, the member item, the invitee's profile and the trail entry; nothing of Auth0.
      route: 'JoinOrganization',
      status: 200,
      event: joinEvent(),
      arrange: () => team(invitationItem()),
    },
    {
      // A token without an organization role: the invitation gives the role (the records decide).
      route: 'JoinOrganization',
      status: 200,
      event: joinEvent(invitee(orgMember(ORG, []))),
      arrange: () => team(invitationItem()),
    },
  ];
  it.each(successes.map((s, i) => [s.route, i, s] as const))(
    '%s (%i) succeeds within its grants',
    async (_id, _i, s) => {
      s.arrange?.();
      const route = routeOf(s.route);
      const result = await handlers.get(route.id)?.(await eventFor(route, s.event), lambdaContext);
      expect([result?.statusCode, result?.body]).toEqual([s.status, expect.any(String)]);
      expect(ddb.calls().length).toBeGreaterThan(0);
      expect(callsDenied(route)).toEqual([]);
    },
  );
});

describe('a handler takes its auth from the route that mounts it', () => {
  it.each(routes.map((route) => [route.handler, route] as const))(
    'lambdas/handlers/%s.ts serves the route routes.ts mounts it on',
    (_handler, route) => {
      expect(handlers.get(route.id)?.routeId).toBe(route.id);
    },
  );

  it.each(routes.filter((route) => route.auth === 'admin').map((route) => [route.id, route] as const))(
    '%s refuses a signed-in non-admin with 403 and reads nothing, and serves an admin',
    async (_id, route) => {
      const input = {
        pathParameters: { userId: USER },
        body: JSON.stringify(route.id === 'AllowVerificationAttempt' ? newAttemptBody : decisionBody),
      };
      const body = route.method === 'GET' ? { pathParameters: input.pathParameters } : input;
      const refused = await handlers.get(route.id)?.(
        await eventFor(route, { ...body, claims: claims() }),
        lambdaContext,
      );
      expect(refused?.statusCode).toBe(403);
      expect(parse(refused?.body)).toMatchObject({
        type: problemTypes.adminRequired,
        title: 'Forbidden',
        status: 403,
      });
      expect(ddb.calls()).toEqual([]);
      expect(bus.calls()).toEqual([]);

      ddb.on(GetCommand, { TableName: 'kyc' }).resolves({
        Item: kycState(route.id === 'AllowVerificationAttempt' ? { status: 'rejected' } : {}),
      });
      if (route.id === 'GetVerificationEvidence') {
        remote = [['GET persona.test/api/v1/inquiries/inq_1', personaInquiryWithChecks]];
      }
      const served = await handlers.get(route.id)?.(
        await eventFor(route, { ...body, claims: claims(admin) }),
        lambdaContext,
      );
      expect(served?.statusCode).toBe(200);
    },
  );
});
