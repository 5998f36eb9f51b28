import { createHmac } from 'node:crypto';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import { httpApiEvent, lambdaContext } from '#tests/fixtures/events/http-api-event.ts';

// The handler's edge: signature before parsing, nothing read or written on failure.

const ddb = mockClient(DynamoDBDocumentClient);
const eventBridge = mockClient(EventBridgeClient);
const secrets = mockClient(SecretsManagerClient);
let handler: HttpLambda;

beforeAll(async () => {
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    KYC_STATE_TABLE: 'kyc-test',
    EVENT_BUS_NAME: 'bus-test',
    PERSONA_WEBHOOK_SECRET_ID: 'persona-webhook-secret',
  });
  // Two secrets while ours rotates (whitespace separated).
  secrets.on(GetSecretValueCommand).resolves({ SecretString: 'wbhsec_current\nwbhsec_next' });
  ({ handler } = await import('#lambdas/handlers/receive-persona-webhook.ts'));
});

afterEach(() => {
  ddb.resetHistory();
  eventBridge.resetHistory();
});

const sign = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

const startedEvent = JSON.stringify({
  data: {
    type: 'event',
    id: 'evt_started',
    attributes: {
      name: 'inquiry.started',
      'created-at': '2026-11-21T06:00:00.000Z',
      payload: {
        data: { type: 'inquiry', id: 'inq_1', attributes: { status: 'pending', 'reference-id': 'u1' } },
      },
    },
  },
});

const call = (body: string, signature?: string, base64 = false) =>
  handler(
    httpApiEvent({
      routeKey: 'POST /api/webhooks/persona',
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'persona-signature': signature }),
      },
      body: base64 ? Buffer.from(body).toString('base64') : body,
      isBase64Encoded: base64,
    }),
    lambdaContext,
  );

describe('receive-persona-webhook', () => {
  it.each([
    ['no signature', undefined],
    ['a signature made with another secret', sign('wbhsec_attacker', startedEvent)],
    ['a stale signature', sign('wbhsec_current', startedEvent, Math.floor(Date.now() / 1000) - 600)],
  ])('answers 401 problem+json to %s and touches no table', async (_name, signature) => {
    const result = await call(startedEvent, signature);
    expect(result.statusCode).toBe(401);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(ddb.calls()).toHaveLength(0);
    expect(eventBridge.calls()).toHaveLength(0);
  });

  it('acknowledges an unmapped event signed with either configured secret without touching the table', async () => {
    for (const secret of ['wbhsec_current', 'wbhsec_next']) {
      const result = await call(startedEvent, sign(secret, startedEvent));
      expect(result.statusCode).toBe(200);
      expect(JSON.parse(result.body ?? '{}')).toEqual({ received: true });
    }
    expect(ddb.calls()).toHaveLength(0);
  });

  it('verifies the decoded bytes of a base64-encoded body', async () => {
    expect((await call(startedEvent, sign('wbhsec_current', startedEvent), true)).statusCode).toBe(200);
  });

  it.each([
    ['not JSON', '{"data":'],
    [
      'an envelope without an id',
      JSON.stringify({ data: { type: 'event', attributes: { name: 'inquiry.approved' } } }),
    ],
    [
      'an inquiry.approved without its inquiry',
      JSON.stringify({
        data: {
          type: 'event',
          id: 'evt_1',
          attributes: {
            name: 'inquiry.approved',
            'created-at': '2026-11-21T06:00:00Z',
            payload: { data: null },
          },
        },
      }),
    ],
  ])('answers 400 to a correctly signed body that is %s, and writes nothing', async (_name, body) => {
    const result = await call(body, sign('wbhsec_current', body));
    expect(result.statusCode).toBe(400);
    expect(ddb.calls()).toHaveLength(0);
  });
});
