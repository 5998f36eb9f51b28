import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { KycStatus } from '#contracts/kyc.ts';
import { statusForEvent, statusPrecedence } from '#lambdas/domain/kyc/status-mapping.ts';
import { seededRandom } from '#local/faults.ts';
import type { DeadLetter } from '#local/gateway/eventbridge.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import {
  type EnrolledUser,
  enrolledUsers,
  personaEvent,
  sendWebhook,
  shuffle,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { mailbox, managementToken } from '#tests/helpers/tokens.ts';

// Issue 11, item 2 (ADR 0035): correctly signed Persona events, each delivered up to three times,
// shuffled, 50 requests in flight, through the web origin; then the same under injected faults
// (Auth0 429/503, PutEvents entries failed, SES sends failed) and a full outage of one target
// that only `npm run events:redrive` can finish. Whatever the order and the faults, once the bus is
// idle (and the dead letters are replayed) each user ends in the status of their newest event
// everywhere (KYC table, GET /api/me, Auth0 app_metadata), every applied change was published and
// emailed, and nothing is left in the dead-letter store. `npm run test:soak` (SOAK=1) runs the
// issue's full counts (1,000 events, 100 users); `npm test` a fifth of them.

const stack = inject('stack');
const stateDir = inject('stackStateDir');
const db = stackDb(stack);
const api = webApi(stack);
const soak = Boolean(process.env.SOAK);
const userCount = soak ? 100 : 20;
const eventsPerUser = 10;
const inFlight = 50;
const seed = Number(process.env.LOAD_SEED ?? 11);

/** What the local gateway answers when a function overruns its route's timeout (local/gateway). */
const localTimeout = '503 {"message":"Service Unavailable"}';

const eventNames = ['inquiry.completed', 'inquiry.marked-for-review', 'inquiry.approved', 'inquiry.declined'];

interface Planned {
  user: EnrolledUser;
  body: string;
  at: string;
  status: KycStatus;
}

/** Per user, events a fraction of a second to a second apart (so many share a second), random names. */
function plan(users: EnrolledUser[], random: () => number) {
  const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  const events: Planned[] = users.flatMap((user) =>
    Array.from({ length: eventsPerUser }, (_, k) => {
      const name = eventNames[Math.floor(random() * eventNames.length)] as string;
      const at = new Date(base + Math.floor(k * 0.6) * 1000);
      return {
        user,
        body: personaEvent(name, user, at),
        at: at.toISOString(),
        status: statusForEvent(name) as KycStatus,
      };
    }),
  );
  // The newest event by (created-at, precedence of its status): ADR 0030's order, computed here
  // independently of the product.
  const newest = new Map<string, KycStatus>();
  for (const user of users) {
    const own = events.filter((event) => event.user === user);
    const last = own.reduce((a, b) =>
      b.at > a.at || (b.at === a.at && statusPrecedence[b.status] > statusPrecedence[a.status]) ? b : a,
    );
    newest.set(user.userId, last.status);
  }
  // Each event delivered one to three times (Persona retries; deliveries overlap), all shuffled.
  const deliveries = events.flatMap((event) =>
    Array.from({ length: 1 + (random() < 0.5 ? 1 : 0) + (random() < 0.25 ? 1 : 0) }, () => event.body),
  );
  const eventIds = events.map((event) => (JSON.parse(event.body) as { data: { id: string } }).data.id);
  return { deliveries: shuffle(deliveries, random), newest, events: events.length, eventIds };
}

/** Sends every body, `inFlight` at a time; what was not acknowledged is sent again, as Persona does. */
async function deliverAll(bodies: string[]) {
  const statuses = new Map<number, number>();
  const refusals = new Map<string, number>();
  let pending = bodies;
  let rounds = 0;
  let requests = 0;
  while (pending.length > 0 && rounds < 20) {
    rounds++;
    const answers: number[] = new Array(pending.length);
    let next = 0;
    const queue = pending;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < queue.length) {
          const index = next++;
          const answer = await sendWebhook(stack, queue[index] as string);
          answers[index] = answer.status;
          if (answer.status !== 200) {
            const key = `${answer.status} ${answer.body.slice(0, 120)}`;
            refusals.set(key, (refusals.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    requests += queue.length;
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    pending = queue.filter((_, index) => answers[index] !== 200);
  }
  return {
    statuses: Object.fromEntries(statuses),
    refusals: Object.fromEntries(refusals),
    requests,
    unacknowledged: pending.length,
  };
}

const control = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  });
const idpBase = stack.idp.issuer.replace(/\/$/, '');
const settle = () => control(stack.api, 'POST', '/__local/events/settle');
const faultsOff = () =>
  Promise.all([
    control(stack.api, 'DELETE', '/__local/faults'),
    control(idpBase, 'DELETE', '/__local/faults'),
  ]);

afterEach(faultsOff);

const redrive = async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'scripts/events-redrive.ts', '--stack', join(stateDir, 'stack.json')],
    { env: process.env },
  ).catch((error: { stdout: string; code: number }) => ({ stdout: `${error.stdout} (exit ${error.code})` }));
  return stdout;
};

/** Everything a user, the admins and the operators can see about each user. */
async function observe(users: EnrolledUser[]) {
  const token = await managementToken(stack);
  const busEvents = (await control(stack.api, 'GET', '/__local/events')) as {
    'detail-type': string;
    detail: { userId?: string; status?: string; changeId?: string; eventId?: string };
  }[];
  const queued = new Set(
    busEvents
      .filter((event) => event['detail-type'] === 'PersonaEventReceived')
      .map((event) => event.detail.eventId),
  );
  const emails = await mailbox(stack);
  const letters = (await control(stack.api, 'GET', '/__local/dead-letters')) as DeadLetter[];
  const ids = new Set(users.map((user) => user.userId));
  const ownLetters = letters.filter((letter) => {
    const detail = letter.event.detail as { userId?: string; inquiryId?: string };
    return (
      ids.has(String(detail.userId)) || users.some((user) => JSON.stringify(detail).includes(user.inquiryId))
    );
  });
  const perUser = await Promise.all(
    users.map(async (user) => {
      const { Item } = await db.client.send(
        new GetCommand({
          TableName: db.tableName('KycState'),
          Key: { pk: `USER#${user.userId}`, sk: 'STATE' },
          ConsistentRead: true,
        }),
      );
      const { Items: history = [] } = await db.client.send(
        new QueryCommand({
          TableName: db.tableName('KycState'),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
          ExpressionAttributeValues: { ':pk': `USER#${user.userId}`, ':history': 'HISTORY#' },
          ConsistentRead: true,
        }),
      );
      const me = (await (await api('/api/me', { token: user.token })).json()) as { kycStatus: string };
      const idp = await managementFetch(
        `${stack.idp.issuer}api/v2/users/${encodeURIComponent(user.userId)}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      const { app_metadata } = (await idp.json()) as { app_metadata: { kyc_status?: string } };
      const published = busEvents.filter(
        (event) => event['detail-type'] === 'KycStatusChanged' && event.detail.userId === user.userId,
      );
      const changes = history.map((row) => String(row.to)).sort();
      return {
        table: Item?.status as string,
        me: me.kycStatus,
        auth0: app_metadata.kyc_status,
        changes,
        // Each applied change published (at least once; targets de-duplicate on its changeId).
        publishedChanges: [
          ...new Map(published.map((event) => [event.detail.changeId, String(event.detail.status)])).values(),
        ].sort(),
        publishes: published.length,
        decisionEmails: emails.filter((email) => email.destination.to.includes(user.email)).length,
      };
    }),
  );
  return { perUser, deadLetters: ownLetters.length, queued };
}

function expectConverged(
  users: EnrolledUser[],
  newest: Map<string, KycStatus>,
  seen: Awaited<ReturnType<typeof observe>>,
  eventIds: string[],
) {
  // Every event Persona was told was received (200) is on the bus: Persona stops retrying it.
  expect(eventIds.filter((id) => !seen.queued.has(id))).toEqual([]);
  expect(seen.perUser.map(({ table, me, auth0 }) => ({ table, me, auth0 }))).toEqual(
    users.map((user) => {
      const status = newest.get(user.userId);
      return { table: status, me: status, auth0: status };
    }),
  );
  // Published exactly the applied changes (none lost, none invented) and one email per decision.
  expect(seen.perUser.map((user) => user.publishedChanges)).toEqual(seen.perUser.map((user) => user.changes));
  expect(seen.perUser.map((user) => user.decisionEmails)).toEqual(
    seen.perUser.map((user) => user.changes.filter((to) => to === 'approved' || to === 'rejected').length),
  );
  expect(seen.deadLetters).toBe(0);
}

const figures = (label: string, data: Record<string, unknown>) =>
  console.log(`[webhook-load] ${label} ${JSON.stringify(data)}`);

describe('webhook load', { timeout: soak ? 900_000 : 240_000 }, () => {
  it('without faults: no 5xx, every user in the status of their newest event everywhere, each change published and emailed once', async () => {
    const started = Date.now();
    const users = await enrolledUsers(stack, userCount, 5);
    const { deliveries, newest, events, eventIds } = plan(users, seededRandom(seed));
    const sent = await deliverAll(deliveries);
    // No 5xx from the product. The local gateway's own 503 when a function overruns its route
    // timeout (every function shares one Node process on this 2-core machine; in AWS each has its
    // own) is capacity of the emulation, not an answer of the product: counted, sent again.
    const { [localTimeout]: timeouts = 0, ...productRefusals } = sent.refusals;
    expect(productRefusals).toEqual({});
    expect(sent.unacknowledged).toBe(0);
    await settle();
    const seen = await observe(users);
    expectConverged(users, newest, seen, eventIds);
    figures('no faults', {
      users: users.length,
      events,
      requests: sent.requests,
      localGatewayTimeouts: timeouts,
      duplicates: deliveries.length - events,
      changes: seen.perUser.reduce((n, user) => n + user.changes.length, 0),
      publishes: seen.perUser.reduce((n, user) => n + user.publishes, 0),
      ms: Date.now() - started,
    });
  });

  it('under faults (Auth0 20% 429 + 5% 503, 10% of PutEvents entries, 10% of deliveries duplicated, 10% of SES sends): nothing lost or doubled once the dead letters are replayed', async () => {
    const started = Date.now();
    const users = await enrolledUsers(stack, userCount, 5);
    const { deliveries, newest, events, eventIds } = plan(users, seededRandom(seed + 1));
    await control(stack.api, 'POST', '/__local/faults', {
      seed,
      eventBridge: { putEventsFailureRate: 0.1, duplicateDeliveryRate: 0.1 },
      ses: { sendFailureRate: 0.1 },
    });
    await control(idpBase, 'POST', '/__local/faults', {
      seed,
      managementApi: { rateLimitRate: 0.2, unavailableRate: 0.05 },
    });
    const sent = await deliverAll(deliveries);
    expect(sent.unacknowledged).toBe(0);
    await settle();
    const injected = {
      gateway: await control(stack.api, 'GET', '/__local/faults'),
      idp: await control(idpBase, 'GET', '/__local/faults'),
    };
    await faultsOff();
    // A change whose publish failed waits in the outbox for the relay (every minute in AWS).
    await control(stack.api, 'POST', '/__local/schedules/RelayKycOutbox');
    await settle();
    const deadLettered = (await observe(users)).deadLetters;
    const first = await redrive();
    const seen = await observe(users);
    expectConverged(users, newest, seen, eventIds);
    // A second redrive replays nothing of theirs and changes nothing anyone sees.
    const second = await redrive();
    expect(await observe(users)).toEqual(seen);
    figures('faults', {
      users: users.length,
      events,
      requests: sent.requests,
      answers: sent.statuses,
      duplicates: deliveries.length - events,
      injected,
      deadLettered,
      redrive: [first.trim(), second.trim()],
      changes: seen.perUser.reduce((n, user) => n + user.changes.length, 0),
      publishes: seen.perUser.reduce((n, user) => n + user.publishes, 0),
      ms: Date.now() - started,
    });
  });

  it('an SES outage dead-letters the decision emails; `npm run events:redrive` sends each once, and again sends nothing', async () => {
    const users = await enrolledUsers(stack, 3, 3);
    await control(stack.api, 'POST', '/__local/faults', {
      seed,
      eventBridge: { retryDelayMs: 10 },
      ses: { sendFailureRate: 1, failureStatus: 503 },
    });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const sent = await deliverAll(users.map((user) => personaEvent('inquiry.approved', user, at)));
    expect(sent.statuses).toEqual({ 200: 3 });
    await settle();
    const during = await observe(users);
    expect(during.deadLetters).toBe(3);
    expect(during.perUser.map((user) => user.decisionEmails)).toEqual([0, 0, 0]);
    await faultsOff();
    await redrive();
    const after = await observe(users);
    expect(after.perUser.map((user) => [user.table, user.auth0, user.decisionEmails])).toEqual(
      users.map(() => ['approved', 'approved', 1]),
    );
    expect(after.deadLetters).toBe(0);
    await redrive();
    expect(await observe(users)).toEqual(after);
  });
});
