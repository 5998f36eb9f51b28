import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { listVerificationsResponse } from '#contracts/admin-verifications.ts';
import type { HttpApiEvent } from '#lambdas/http/api-gateway.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import { routes } from '#lambdas/routes.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';

// GET /api/admin/verifications at the handler's edge: admins only, the query checked before any
// read, and an answer that is exactly the contract the web validates.

const ddb = mockClient(DynamoDBDocumentClient);
mockOriginSecret(mockClient(SecretsManagerClient));
const namespace = 'https://platform.test/';
const issuer = 'https://idp.test/';
const audience = 'https://api.platform.test';
let handler: HttpLambda;
let key: SigningKey;

beforeAll(async () => {
  key = await signingKey('idp-key');
  // The issuer's JWKS, which the handler fetches to verify the bearer token.
  vi.stubGlobal('fetch', async () => Response.json({ keys: [key.jwk] }));
  Object.assign(process.env, {
    AUTH0_ISSUER: issuer,
    AUTH0_AUDIENCE: audience,
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    KYC_STATE_TABLE: 'kyc-test',
    SUBMISSIONS_TABLE: 'submissions-test',
    CLAIMS_NAMESPACE: namespace,
  });
  ({ handler } = await import('#lambdas/handlers/list-verifications.ts'));
});

afterAll(() => {
  vi.unstubAllGlobals();
});

const state = {
  pk: 'USER#auth0|u1',
  sk: 'STATE',
  kind: 'kyc_state',
  userId: 'auth0|u1',
  status: 'pending',
  queueStatus: 'pending',
  updatedAt: '2026-11-21T06:00:00.000Z',
  inquiryId: 'inq_1',
  referenceId: 'auth0|u1',
  version: 2,
  decidedBy: 'persona',
  // The failed checks the last Persona event listed (ADR 0082's amendment); a malformed entry is left out.
  flaggedChecks: [
    { type: 'selfie', name: 'selfie_id_comparison' },
    { type: 'selfie', name: 42 },
  ],
};
const historyItem = {
  pk: 'USER#auth0|u1',
  sk: 'HISTORY#2026-11-21T06:00:00.000Z#00000002',
  kind: 'kyc_history',
  from: 'not_started',
  to: 'pending',
  by: 'persona',
  actorId: 'persona',
  reason: 'inquiry.marked-for-review',
  eventId: 'evt_1',
  inquiryId: 'inq_1',
  at: '2026-11-21T06:00:00.000Z',
};
const registrationItem = {
  pk: 'REGISTRATION#auth0|u1',
  sk: 'REGISTRATION',
  kind: 'registration',
  userId: 'auth0|u1',
  email: 'ada@helix-bio.example',
  responsibleName: 'Ada Lovelace',
  responsibleTitle: 'CISO',
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Helix Bio',
  organizationUrl: 'https://helix-bio.example',
  organizationType: 'academic',
  createdAt: '2026-11-20T00:00:00.000Z',
};

beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand, { IndexName: 'byStatus' }).resolves({ Items: [state] });
  ddb.on(QueryCommand, { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)' }).resolves({
    Items: [historyItem],
  });
  ddb.on(BatchGetCommand).resolves({ Responses: { 'submissions-test': [registrationItem] } });
});

async function request(
  options: { role?: 'admin' | 'user'; query?: Record<string, string> } = {},
): Promise<HttpApiEvent> {
  const role = options.role ?? 'admin';
  const token = await key.sign({
    iss: issuer,
    sub: 'auth0|admin',
    aud: audience,
    ...freshTimes(),
    [`${namespace}role`]: role,
  });
  const event = httpApiEvent({
    routeKey: 'GET /api/admin/verifications',
    rawPath: '/api/admin/verifications',
    body: undefined,
    ...(options.query ? { queryStringParameters: options.query } : {}),
  });
  event.headers.authorization = `Bearer ${token}`;
  event.requestContext.authorizer = {
    jwt: {
      claims: { sub: 'auth0|admin', iss: issuer, [`${namespace}role`]: role },
      scopes: null,
    },
  };
  return event;
}

async function call(event: HttpApiEvent) {
  const result = await handler(event, lambdaContext);
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
}

describe('GET /api/admin/verifications', () => {
  it('answers the pending queue by default, each item with its organization, contact, inquiry and history', async () => {
    const response = await call(await request());
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['cache-control']).toBe('no-store');
    expect(listVerificationsResponse.safeParse(response.json).success).toBe(true);
    expect(response.json).toEqual({
      truncated: false,
      nextCursor: null,
      items: [
        {
          userId: 'auth0|u1',
          status: 'pending',
          inquiryId: 'inq_1',
          updatedAt: '2026-11-21T06:00:00.000Z',
          decidedBy: 'persona',
          reasonCode: null,
          submitted: true,
          attempt: 1,
          newAttemptAllowed: false,
          email: 'ada@helix-bio.example',
          name: 'Ada Lovelace',
          organizationName: 'Helix Bio',
          organizationUrl: 'https://helix-bio.example',
          organizationType: 'academic',
          proposal: null,
          flaggedChecks: [{ type: 'selfie', name: 'selfie_id_comparison' }],
          history: [
            {
              status: 'pending',
              previousStatus: 'not_started',
              decidedBy: 'persona',
              adminId: null,
              reason: 'inquiry.marked-for-review',
              reasonCode: null,
              action: 'status_changed',
              at: '2026-11-21T06:00:00.000Z',
            },
          ],
        },
      ],
    });
    const indexQuery = ddb.commandCalls(QueryCommand, { IndexName: 'byStatus' })[0]?.args[0].input;
    expect(indexQuery?.ExpressionAttributeValues).toEqual({ ':status': 'pending' });
    // The registration and the profile (an invited member's organization, ADR 0084) are read from
    // the submissions table by their keys, in one call, nothing else.
    expect(ddb.commandCalls(BatchGetCommand)[0]?.args[0].input.RequestItems).toEqual({
      'submissions-test': {
        Keys: [
          { pk: 'REGISTRATION#auth0|u1', sk: 'REGISTRATION' },
          { pk: 'PROFILE#auth0|u1', sk: 'PROFILE' },
        ],
      },
    });
  });

  it("does not pass on the registration's phone, title or table keys", async () => {
    const response = await call(await request());
    const item = response.json.items[0];
    expect(item).not.toHaveProperty('responsiblePhone');
    expect(item).not.toHaveProperty('responsibleTitle');
    expect(JSON.stringify(response.json)).not.toContain('+49 30');
    expect(JSON.stringify(response.json)).not.toContain('REGISTRATION#');
  });

  it('answers 403 to a signed-in user who is not an admin, reading nothing', async () => {
    const response = await call(await request({ role: 'user' }));
    expect(response.statusCode).toBe(403);
    expect(response.headers?.['content-type']).toBe('application/problem+json');
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers 400 naming the status parameter for an unknown filter, reading nothing', async () => {
    const response = await call(await request({ query: { status: 'everything' } }));
    expect(response.statusCode).toBe(400);
    expect(response.json.errors).toEqual([
      { field: 'status', message: 'Use pending, approved, rejected or all' },
    ]);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers 400 problem+json with a field error for a bad cursor, search or sort, reading nothing', async () => {
    const response = await call(
      await request({ query: { cursor: 'bm90LWEtY3Vyc29y', q: 'x', sort: 'alphabetical' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.headers?.['content-type']).toContain('application/problem+json');
    expect(response.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'cursor', message: 'This page no longer exists: start again from the first page' },
        { field: 'q', message: 'Search with 2 to 100 characters' },
        { field: 'sort', message: 'Use newest or oldest' },
      ]),
    );
    expect(ddb.calls()).toHaveLength(0);
  });

  it('answers a generic 500 when DynamoDB fails, without its message', async () => {
    ddb
      .on(BatchGetCommand)
      .rejects(new Error('ProvisionedThroughputExceededException: table submissions-test'));
    const response = await call(await request({ query: { status: 'all' } }));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('submissions-test');
  });
});

describe('the ListVerifications route', () => {
  it('may only read: the KYC table with its queue index, and the registrations', () => {
    const route = routes.find((entry) => entry.id === 'ListVerifications');
    expect(route?.auth).toBe('admin');
    expect(route?.grants).toEqual([
      { kind: 'table', table: 'kycState', access: 'read', indexes: true },
      { kind: 'table', table: 'submissions', access: 'read', indexes: false },
      // Every route's: the wrapper checks the request came through CloudFront.
      { kind: 'secret', secret: 'originVerify' },
    ]);
  });
});
