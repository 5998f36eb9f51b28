import { createHmac } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { personaWebhookMaxBodyBytes } from '#contracts/persona-webhook.ts';
import { problemTypes } from '#contracts/problem.ts';
import { defaultMaxBodyBytes } from '#contracts/route.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';

// The handler's edge: signature before parsing, nothing read, written or published on failure; a
// valid event is handed to the bus as a small PersonaEventReceived and acknowledged, and a
// refused publish answers 503 so that Persona retries.

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
  mockOriginSecret(secrets);
  ({ handler } = await import('#lambdas/handlers/receive-persona-webhook.ts'));
});

beforeEach(() => {
  ddb.reset();
  eventBridge.reset();
  eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'bus-1' }] });
});

/** The entries the handler put on the bus, parsed. */
const published = () =>
  eventBridge.commandCalls(PutEventsCommand).flatMap((call) =>
    (call.args[0].input.Entries ?? []).map((entry) => ({
      bus: entry.EventBusName,
      source: entry.Source,
      detailType: entry.DetailType,
      detail: JSON.parse(entry.Detail ?? 'null') as unknown,
    })),
  );

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

function inquiryEvent(input: {
  id: string;
  name: string;
  createdAt: string;
  extra?: Record<string, unknown>;
}) {
  return JSON.stringify({
    data: {
      type: 'event',
      id: input.id,
      attributes: {
        name: input.name,
        'created-at': input.createdAt,
        'redacted-at': null,
        payload: {
          data: {
            type: 'inquiry',
            id: 'inq_1',
            attributes: {
              status: 'approved',
              'reference-id': 'auth0|u1',
              'name-first': 'Ada',
              'name-last': 'Lovelace',
              birthdate: '1815-12-10',
              ...input.extra,
            },
          },
          included: [{ type: 'verification/government-id', id: 'ver_1', attributes: { 'id-number': 'X1' } }],
        },
      },
    },
  });
}

const approvedEvent = inquiryEvent({
  id: 'evt_approved',
  name: 'inquiry.approved',
  createdAt: '2026-11-21T06:00:00.123456Z',
});

const call = (body: string, signature?: string, base64 = false) =>
  handler(
    httpApiEvent({
      routeKey: 'POST /api/webhooks/persona',
      headers: {
        ...httpApiEvent().headers,
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
    ['a signature made with another secret', sign('wbhsec_attacker', approvedEvent)],
    ['a stale signature', sign('wbhsec_current', approvedEvent, Math.floor(Date.now() / 1000) - 600)],
    ['a signature of another body', sign('wbhsec_current', approvedEvent.replace('approved', 'declined'))],
  ])(
    'answers 401 problem+json to %s and touches no table and publishes nothing',
    async (_name, signature) => {
      const result = await call(approvedEvent, signature);
      expect(result.statusCode).toBe(401);
      expect(result.headers?.['content-type']).toBe('application/problem+json');
      expect(ddb.calls()).toHaveLength(0);
      expect(eventBridge.calls()).toHaveLength(0);
    },
  );

  it('answers 401 to a rotation header whose every pair is invalid, and publishes nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = [
      sign('wbhsec_rotated_out', approvedEvent),
      sign('wbhsec_next', approvedEvent, now - 600),
    ].join(' ');
    const result = await call(approvedEvent, header);
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body ?? '{}').type).toBe(problemTypes.invalidSignature);
    expect(eventBridge.calls()).toHaveLength(0);
  });

  it('answers 401 invalidSignature to more than two signature pairs, even when one of them is valid (ADR 0071)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = [
      `t=${now},v1=${'a'.repeat(64)}`,
      `t=${now - 1},v1=${'b'.repeat(64)}`,
      sign('wbhsec_current', approvedEvent, now),
    ].join(' ');
    const result = await call(approvedEvent, header);
    expect(result.statusCode).toBe(401);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(JSON.parse(result.body ?? '{}').type).toBe(problemTypes.invalidSignature);
    expect(ddb.calls()).toHaveLength(0);
    expect(eventBridge.calls()).toHaveLength(0);
    // The same event with only its valid pair is accepted.
    expect((await call(approvedEvent, sign('wbhsec_current', approvedEvent, now))).statusCode).toBe(200);
  });

  describe('the security log', () => {
    let written: string[];
    beforeEach(() => {
      written = [];
      logger.setLogLevel('INFO');
      // Every line the logger writes, whatever its level, through the console it writes to.
      const sink = (logger as unknown as { console: Record<string, (line: unknown) => void> }).console;
      for (const method of ['debug', 'info', 'warn', 'error', 'log'] as const) {
        vi.spyOn(sink, method).mockImplementation((line: unknown) => {
          written.push(String(line));
        });
      }
    });
    afterEach(() => {
      vi.restoreAllMocks();
      logger.setLogLevel('SILENT');
    });

    const valid = sign('wbhsec_current', approvedEvent);
    it.each([
      ['no header', undefined, 'missing'],
      ['a malformed header', 't=1,v1=zz', 'malformed'],
      ['another secret', sign('wbhsec_attacker', approvedEvent), 'mismatch'],
      [
        'a stale signature',
        sign('wbhsec_current', approvedEvent, Math.floor(Date.now() / 1000) - 600),
        'stale',
      ],
      [
        'a future signature',
        sign('wbhsec_current', approvedEvent, Math.floor(Date.now() / 1000) + 600),
        'future',
      ],
      ['a truncated signature', valid.slice(0, -2), 'malformed'],
      [
        'a rotation header of invalid pairs',
        `${sign('wbhsec_old', approvedEvent)} ${sign('wbhsec_older', approvedEvent)}`,
        'mismatch',
      ],
    ])(
      'writes one signature_failed line with the request id and without secrets or personal data for %s',
      async (_name, header, reason) => {
        const result = await call(approvedEvent, header);
        expect(result.statusCode).toBe(401);
        const lines = written.flatMap((chunk) => chunk.split('\n')).filter((line) => line.trim() !== '');
        const security = lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.securityEvent === 'signature_failed');
        expect(security).toHaveLength(1);
        expect(security[0]).toMatchObject({ security: true, reason, requestId: expect.any(String) });
        expect([lambdaContext.awsRequestId, 'req-123']).toContain(security[0]?.requestId);
        const everything = written.join('');
        const v1 = /v1=([0-9a-f]+)/.exec(header ?? '')?.[1];
        for (const secret of ['wbhsec_current', 'wbhsec_next', 'wbhsec_attacker', 'wbhsec_old']) {
          expect(everything).not.toContain(secret);
        }
        if (v1) expect(everything).not.toContain(v1);
        for (const pii of ['Ada', 'Lovelace', '1815-12-10', 'auth0|u1', 'inq_1'])
          expect(everything).not.toContain(pii);
      },
    );
  });

  it.each(['inquiry.created', 'inquiry.started', 'inquiry.redacted'])(
    'acknowledges %s signed with either configured secret without publishing it',
    async (name) => {
      const body = startedEvent.replace('inquiry.started', name);
      for (const secret of ['wbhsec_current', 'wbhsec_next']) {
        const result = await call(body, sign(secret, body));
        expect(result.statusCode).toBe(200);
        expect(JSON.parse(result.body ?? '{}')).toEqual({ received: true });
      }
      expect(eventBridge.calls()).toHaveLength(0);
      expect(ddb.calls()).toHaveLength(0);
    },
  );

  it('publishes exactly one PersonaEventReceived with only the fields processing needs, then answers 200', async () => {
    const result = await call(approvedEvent, sign('wbhsec_next', approvedEvent));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body ?? '{}')).toEqual({ received: true });
    expect(published()).toEqual([
      {
        bus: 'bus-test',
        source: 'platform.kyc',
        detailType: 'PersonaEventReceived',
        detail: {
          eventId: 'evt_approved',
          name: 'inquiry.approved',
          createdAt: '2026-11-21T06:00:00.123456Z',
          inquiryId: 'inq_1',
          inquiryStatus: 'approved',
          referenceId: 'auth0|u1',
          // `included` holds a verification, none of its checks failed (ADR 0082's amendment).
          flaggedChecks: [],
        },
      },
    ]);
    // The personal data of the payload stays out of the bus.
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0]?.Detail ?? '';
    for (const pii of ['Ada', 'Lovelace', '1815-12-10', 'X1']) expect(entry).not.toContain(pii);
    expect(ddb.calls()).toHaveLength(0);
  });

  it('publishes the names of the failed checks in included, not their reasons, and reads a malformed included as none', async () => {
    const body = (included: unknown) => {
      const event = JSON.parse(approvedEvent);
      event.data.attributes.payload.included = included;
      return JSON.stringify(event);
    };
    const flagged = body([
      {
        type: 'verification/selfie',
        id: 'ver_2',
        attributes: {
          status: 'failed',
          checks: [
            { name: 'selfie_id_comparison', status: 'failed', reasons: ['Ada Lovelace does not match'] },
            { name: 'selfie_liveness_detection', status: 'passed', reasons: [] },
          ],
        },
      },
    ]);
    expect((await call(flagged, sign('wbhsec_current', flagged))).statusCode).toBe(200);
    for (const malformed of [body('not a list'), body([{ type: 'verification/selfie', attributes: 7 }])]) {
      expect((await call(malformed, sign('wbhsec_current', malformed))).statusCode).toBe(200);
    }
    const details = published().map((entry) => entry.detail as Record<string, unknown>);
    expect(details.map((detail) => detail.flaggedChecks)).toEqual([
      [{ type: 'selfie', name: 'selfie_id_comparison' }],
      undefined,
      undefined,
    ]);
    const entry = eventBridge.commandCalls(PutEventsCommand)[0]?.args[0].input.Entries?.[0]?.Detail ?? '';
    expect(entry).not.toContain('Lovelace');
  });

  it('publishes a redelivered event again: processing, not the webhook, drops duplicates', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await call(approvedEvent, sign('wbhsec_current', approvedEvent))).statusCode).toBe(200);
    }
    expect(published().map((entry) => (entry.detail as { eventId: string }).eventId)).toEqual([
      'evt_approved',
      'evt_approved',
    ]);
  });

  /** A signed approval padded with related-object data to exactly `bytes` bytes. */
  const paddedEvent = (bytes: number) => {
    const empty = inquiryEvent({
      id: 'evt_big',
      name: 'inquiry.approved',
      createdAt: '2026-11-21T06:00:00Z',
      extra: { 'selfie-data': '' },
    });
    const body = inquiryEvent({
      id: 'evt_big',
      name: 'inquiry.approved',
      createdAt: '2026-11-21T06:00:00Z',
      extra: { 'selfie-data': 'x'.repeat(bytes - Buffer.byteLength(empty)) },
    });
    expect(Buffer.byteLength(body)).toBe(bytes);
    return body;
  };

  it("accepts an event of exactly its route's limit (2 MiB, well over 256 KB), and 413s one byte more with nothing published", async () => {
    expect(personaWebhookMaxBodyBytes).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    const atLimit = paddedEvent(personaWebhookMaxBodyBytes);
    expect((await call(atLimit, sign('wbhsec_current', atLimit))).statusCode).toBe(200);
    expect(published()).toHaveLength(1);

    eventBridge.resetHistory();
    const over = paddedEvent(personaWebhookMaxBodyBytes + 1);
    const refused = await call(over, sign('wbhsec_current', over));
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body ?? 'null').type).toBe(problemTypes.payloadTooLarge);
    expect(eventBridge.calls()).toHaveLength(0);
  });

  it("accepts a 300 KB event, which the other routes' 64 KiB limit would refuse", async () => {
    const body = paddedEvent(300_000);
    expect(body.length).toBeGreaterThan(defaultMaxBodyBytes);
    expect((await call(body, sign('wbhsec_current', body))).statusCode).toBe(200);
  });

  it('verifies the decoded bytes of a base64-encoded body', async () => {
    expect((await call(approvedEvent, sign('wbhsec_current', approvedEvent), true)).statusCode).toBe(200);
    expect(published()).toHaveLength(1);
  });

  it.each([
    [
      'EventBridge is unreachable',
      () => eventBridge.on(PutEventsCommand).rejects(new Error('socket hang up')),
    ],
    [
      'EventBridge refuses the entry',
      () =>
        eventBridge.on(PutEventsCommand).resolves({
          FailedEntryCount: 1,
          Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }],
        }),
    ],
  ])('answers 503 problem+json when %s, so that Persona retries', async (_name, fail) => {
    fail();
    const result = await call(approvedEvent, sign('wbhsec_current', approvedEvent));
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(eventBridge.commandCalls(PutEventsCommand).length).toBeGreaterThan(0);
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
    [
      'an inquiry.declined whose inquiry has no status',
      inquiryEvent({
        id: 'evt_2',
        name: 'inquiry.declined',
        createdAt: '2026-11-21T06:00:00Z',
        extra: { status: undefined },
      }),
    ],
  ])('answers 400 to a correctly signed body that is %s, and publishes nothing', async (_name, body) => {
    const result = await call(body, sign('wbhsec_current', body));
    expect(result.statusCode).toBe(400);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(eventBridge.calls()).toHaveLength(0);
    expect(ddb.calls()).toHaveLength(0);
  });
});
