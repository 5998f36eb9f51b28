import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventRuleDef } from '#lambdas/event-rules.ts';
import { seededRandom } from '#local/faults.ts';
import { type RunningGateway, startGateway } from '#local/gateway/index.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { type RunningSes, startSes } from '#local/ses.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, TEST_USER, testIdpOptions } from '#tests/helpers/idp.ts';

// The fault knobs of the local emulators (ADR 0035), seen through the real SDK clients the
// handlers use: off by default, seeded, reset by DELETE, and answering the shapes the real
// services answer.

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const rules: EventRuleDef[] = [
  {
    id: 'Count',
    description: 'counts deliveries',
    pattern: { source: ['test.source'], 'detail-type': ['Count'] },
    handler: 'count',
    grants: [],
    retry: { maximumRetryAttempts: 2, maximumEventAgeSeconds: 60 },
  },
];

let gateway: RunningGateway;
let ses: RunningSes;
let idp: RunningIdp;
const delivered: string[] = [];

beforeAll(async () => {
  ses = await startSes({ port: await freePort() });
  gateway = await startGateway({
    port: await freePort(),
    authorizer: { issuer: 'http://localhost:1/', audience: 'test', jwksUri: 'http://localhost:1/jwks.json' },
    routes: [],
    eventRules: rules,
    busName: 'test-bus',
    region: 'eu-central-1',
    loadHandler: async () => async (event: { id: string }) => void delivered.push(event.id),
    eventRetryDelayMs: () => 1,
    sesEndpoint: ses.url.replace('localhost', '127.0.0.1'),
  });
  // The knobs' own draws are measured here (400 calls in a row): the tenant's bucket, which would
  // refuse most of them at any Auth0 plan, is sized out of the way; it has its own tests
  // (tests/local/idp/rate-limit.test.ts, management-api-limits.test.ts).
  idp = await startIdp(
    testIdpOptions({
      port: await freePort(),
      managementApiPlan: { name: 'knob-tests', burst: 1_000_000, perSecond: 1_000_000 },
    }),
  );
});

afterAll(async () => {
  await gateway?.close();
  await ses?.close();
  await idp?.close();
});

const control = async (base: string, method: string, body?: unknown) => {
  const response = await fetch(`${base}/__local/faults`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
};

afterEach(async () => {
  await control(gateway.url, 'DELETE');
  await control(idp.url, 'DELETE');
});

const putEvents = (count: number) =>
  new EventBridgeClient({ endpoint: gateway.eventBridgeEndpoint, region: 'eu-central-1', credentials }).send(
    new PutEventsCommand({
      Entries: Array.from({ length: count }, (_, n) => ({
        EventBusName: 'test-bus',
        Source: 'test.source',
        DetailType: 'Count',
        Detail: JSON.stringify({ n }),
      })),
    }),
  );

const sendEmail = (to: string) =>
  new SESv2Client({
    endpoint: gateway.sesProxyEndpoint,
    region: 'eu-central-1',
    credentials,
    maxAttempts: 1,
  }).send(
    new SendEmailCommand({
      FromEmailAddress: 'no-reply@test.example',
      Destination: { ToAddresses: [to] },
      Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'Hi' } } } },
    }),
  );

const inbox = async (to: string) =>
  (
    (await (await fetch(`${ses.url}/store`)).json()) as { emails: { destination: { to: string[] } }[] }
  ).emails.filter((email) => email.destination.to.includes(to)).length;

describe('seeded dice', () => {
  it('draws the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });
});

describe('EventBridge knobs', () => {
  it('are off by default: every entry accepted and delivered', async () => {
    const answer = await putEvents(10);
    expect(answer.FailedEntryCount).toBe(0);
  });

  it('fail a share of PutEvents entries as AWS reports them, the same ones for the same seed', async () => {
    const run = async () => {
      await control(gateway.url, 'POST', { seed: 42, eventBridge: { putEventsFailureRate: 0.5 } });
      const answers = [await putEvents(10), await putEvents(10)];
      return answers.flatMap((answer) => answer.Entries?.map((entry) => entry.ErrorCode ?? 'ok') ?? []);
    };
    const first = await run();
    expect(first.filter((code) => code === 'InternalFailure').length).toBeGreaterThan(2);
    expect(first.filter((code) => code === 'ok').length).toBeGreaterThan(2);
    expect(await run()).toEqual(first);
    const { body } = await control(gateway.url, 'GET');
    expect(body.eventBridge.injected.putEventsEntry).toBe(first.filter((code) => code !== 'ok').length);
  });

  it('fail target invocations until the event is dead-lettered; a redrive delivers it once, a second replays nothing', async () => {
    await gateway.eventsSettled();
    delivered.length = 0;
    await control(gateway.url, 'POST', { eventBridge: { targetFailureRate: 1 } });
    const answer = await putEvents(1);
    const eventId = answer.Entries?.[0]?.EventId;
    await gateway.eventsSettled();
    expect(delivered).toEqual([]);
    expect(gateway.deadLetters().filter((letter) => letter.event.id === eventId)).toHaveLength(1);
    await control(gateway.url, 'DELETE');
    const redrive = () =>
      fetch(`${gateway.url}/__local/dead-letters/redrive`, { method: 'POST' }).then((r) => r.json());
    expect(await redrive()).toEqual({ replayed: 1, delivered: 1, deadLettered: 0 });
    expect(delivered).toEqual([eventId]);
    expect(await redrive()).toEqual({ replayed: 0, delivered: 0, deadLettered: 0 });
    expect(delivered).toEqual([eventId]);
  });

  it('deliver a share of events twice, with the same event id, as at-least-once delivery may', async () => {
    await gateway.eventsSettled();
    delivered.length = 0;
    await control(gateway.url, 'POST', { eventBridge: { duplicateDeliveryRate: 1 } });
    const ids = (await putEvents(3)).Entries?.map((entry) => entry.EventId) ?? [];
    await gateway.eventsSettled();
    expect(ids).toHaveLength(3);
    expect([...delivered].sort()).toEqual([...ids, ...ids].sort());
    expect((await control(gateway.url, 'GET')).body.eventBridge.injected.duplicateDelivery).toBe(3);
  });

  it('refuses an unknown knob or a rate outside 0..1, and leaves every knob off', async () => {
    expect((await control(gateway.url, 'POST', { eventBridge: { putEventsFailureRate: 2 } })).status).toBe(
      400,
    );
    expect((await control(gateway.url, 'POST', { dynamo: {} })).status).toBe(400);
    expect((await putEvents(10)).FailedEntryCount).toBe(0);
  });
});

describe('SES proxy', () => {
  it('passes sends through to the local mailbox while off', async () => {
    await sendEmail('off@test.example');
    expect(await inbox('off@test.example')).toBe(1);
  });

  it('answers a failed send as SES throttling (429 TooManyRequestsException), or 503, and stores nothing', async () => {
    await control(gateway.url, 'POST', { ses: { sendFailureRate: 1 } });
    await expect(sendEmail('throttled@test.example')).rejects.toMatchObject({
      name: 'TooManyRequestsException',
      $metadata: { httpStatusCode: 429 },
    });
    await control(gateway.url, 'POST', { ses: { sendFailureRate: 1, failureStatus: 503 } });
    await expect(sendEmail('throttled@test.example')).rejects.toMatchObject({
      $metadata: { httpStatusCode: 503 },
    });
    expect(await inbox('throttled@test.example')).toBe(0);
  });
});

describe('identity provider Management API knobs', () => {
  it('answer 429 with x-ratelimit-reset, 503, or a delay, only on the Management API', async () => {
    const token = await managementToken(idp.url);
    const call = () =>
      fetch(`${idp.url}/api/v2/users-by-email?email=nobody%40test.example`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await call()).status).toBe(200);

    await control(idp.url, 'POST', { managementApi: { rateLimitRate: 1, rateLimitResetSeconds: 2 } });
    const limited = await call();
    expect(limited.status).toBe(429);
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset - Date.now() / 1000).toBeGreaterThan(0);
    expect(reset - Date.now() / 1000).toBeLessThanOrEqual(2);
    // Tokens are not Management API calls: still issued.
    expect(await managementToken(idp.url)).toBeTruthy();

    await control(idp.url, 'POST', { managementApi: { unavailableRate: 1 } });
    expect((await call()).status).toBe(503);

    await control(idp.url, 'POST', { managementApi: { delayMs: 300 } });
    const started = performance.now();
    expect((await call()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);

    await control(idp.url, 'DELETE');
    expect((await call()).status).toBe(200);
  });

  it('do not apply a delayed write whose caller gave up waiting, and apply one whose caller waited', async () => {
    const token = await managementToken(idp.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const [seed] = (await (
      await fetch(`${idp.url}/api/v2/users-by-email?email=${encodeURIComponent(TEST_USER.email)}`, {
        headers,
      })
    ).json()) as { user_id: string }[];
    if (!seed) throw new Error('the seeded user is missing');
    const user = `${idp.url}/api/v2/users/${encodeURIComponent(seed.user_id)}`;
    const patch = (kyc_status: string, timeoutMs: number) =>
      fetch(user, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ app_metadata: { kyc_status } }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    const status = async () =>
      ((await (await fetch(user, { headers })).json()) as { app_metadata?: { kyc_status?: string } })
        .app_metadata?.kyc_status;

    await control(idp.url, 'POST', { managementApi: { delayMs: 300 } });
    expect((await patch('approved', 5_000)).status).toBe(200);
    await expect(patch('pending', 50)).rejects.toThrow();
    // Long after the delay: the abandoned PATCH has not overwritten the one that was answered.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await status()).toBe('approved');
  });

  it('draw a share of faults close to the rates asked', async () => {
    const token = await managementToken(idp.url);
    await control(idp.url, 'POST', { seed: 3, managementApi: { rateLimitRate: 0.2, unavailableRate: 0.05 } });
    const statuses: number[] = [];
    for (let n = 0; n < 400; n++)
      statuses.push(
        (
          await fetch(`${idp.url}/api/v2/users-by-email?email=nobody%40test.example`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      );
    const share = (status: number) => statuses.filter((s) => s === status).length / statuses.length;
    expect(share(429)).toBeGreaterThan(0.12);
    expect(share(429)).toBeLessThan(0.28);
    expect(share(503)).toBeGreaterThan(0.01);
    expect(share(503)).toBeLessThan(0.1);
  });
});
