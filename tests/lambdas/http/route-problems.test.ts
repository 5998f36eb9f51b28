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
import { type ProblemName, problemTypes } from '#contracts/problem.ts';
import { maxBodyBytesOf } from '#contracts/route.ts';
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
