import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import { installClock, launchBrowser, runClock } from '#tests/helpers/browser.ts';
import { giveConsent, personaWidget, signedInNewUser } from '#tests/helpers/kyc-journey.ts';
import { settleEvents, webApi } from '#tests/helpers/persona-webhooks.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 22, item 4, in real Chromium against the local stack: on the open status screen the
// decision arrives by push (the AppSync Events emulator), not by polling, and the approved person
// is taken to their dashboard 3 seconds later. The screen subscribes to the person's channel while
// pending and asks GET /api/me once per subscription; it polls (after 1, 2, 5, then every 10 s)
// only while the channel is down (ADR 0060). The page's clock is Playwright's: once the screen is
// subscribed the test stops it and moves it itself, and counts the page's GET /api/me requests.

const stack = inject('stack');
const api = webApi(stack);
const testTimeoutMs = 150_000;
/** What the page does, it does within real seconds on this shared machine. */
const eventually = { timeout: 15_000 };

let browser: Browser;
let adminToken: string;
beforeAll(async () => {
  browser = await launchBrowser();
  const admin = stack.accounts.find((account) => account.role === 'admin');
  if (!admin) throw new Error('stack.json has no admin account');
  adminToken = await passwordToken(stack, admin.email, admin.password);
});
afterAll(() => browser?.close());

type Happening = 'GET /api/me' | 'subscribed' | 'pushed' | 'channel closed';

/**
 * What the page does that matters here, in the order it happens: its GET /api/me requests and its
 * realtime link's subscribe_success, data and close (the browser's own WebSocket frames).
 */
function record(page: Page) {
  const happenings: Happening[] = [];
  /** Every request of the page (any origin, any kind: a screen's code too), as `METHOD path`. */
  const everyRequest: string[] = [];
  const requests = new Set<Request>();
  let answered = 0;
  let userId: string | undefined;
  const isMe = (request: Request) =>
    request.method() === 'GET' && new URL(request.url()).pathname === '/api/me';
  page.on('request', (request) => {
    everyRequest.push(`${request.method()} ${new URL(request.url()).pathname}`);
    if (!isMe(request)) return;
    requests.add(request);
    happenings.push('GET /api/me');
  });
  const done = (request: Request) => {
    if (requests.has(request)) answered += 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response) => {
    if (!isMe(response.request()) || !response.ok()) return;
    response
      .json()
      .then((me: { userId?: string }) => {
        userId ??= me.userId;
      })
      .catch(() => undefined);
  });
  page.on('websocket', (socket) => {
    if (!socket.url().startsWith(stack.realtime.realtimeDomain)) return;
    socket.on('framereceived', ({ payload }) => {
      const type = (JSON.parse(String(payload)) as { type?: string }).type;
      if (type === 'subscribe_success') happenings.push('subscribed');
      if (type === 'data') happenings.push('pushed');
    });
    socket.on('close', () => happenings.push('channel closed'));
  });
  return {
    happenings,
    everyRequest,
    /** What happened after the `count` first happenings. */
    since: (count: number) => happenings.slice(count),
    /** What happened after the last `what`. */
    afterLast: (what: Happening) => happenings.slice(happenings.lastIndexOf(what) + 1),
    allAnswered: () => answered === requests.size,
    userId: () => userId,
  };
}

/**
 * Until every GET /api/me of the page is answered and nothing new has happened for half a second
 * of real time (a push the bus just delivered reaches the page a moment after the publish).
 */
async function quiet(seen: ReturnType<typeof record>) {
  let last = -1;
  await expect
    .poll(
      () => {
        const now = seen.happenings.length;
        const still = now === last && seen.allAnswered();
        last = now;
        return still;
      },
      { interval: 500, timeout: 15_000 },
    )
    .toBe(true);
}

/** The channels the realtime API holds subscriptions to for `userId` (the emulator's control). */
async function subscriptions(userId: string): Promise<string[]> {
  const response = await fetch(`${stack.realtime.httpDomain}/__local/subscriptions`);
  const body = (await response.json()) as { subscriptions: { channel: string; sub: string }[] };
  return body.subscriptions.filter((entry) => entry.sub === userId).map((entry) => entry.channel);
}

const pendingHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Verification In Progress' });
const approvedHeading = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Verification Approved' });

/**
 * A new commercial user on the pending status screen (Persona's "Needs review"), its subscription
 * registered and the GET /api/me that subscribing asks answered; then the page's clock stops.
 */
async function onPendingStatusScreen() {
  const journey = await signedInNewUser(browser, stack, 'commercial', { prepare: installClock });
  const { page } = journey;
  const seen = record(page);
  await giveConsent(stack, journey);
  await personaWidget(page).getByRole('button', { name: 'Needs review' }).click();
  await page.waitForURL(`${stack.web}/auth/kyc-complete`);
  await pendingHeading(page).waitFor();

  await expect.poll(seen.userId, eventually).toBeDefined();
  const userId = seen.userId() as string;
  const channel = kycChannelPath(userId);
  expect(channel).toBeDefined();
  await expect.poll(() => subscriptions(userId), eventually).toEqual([channel]);
  // The webhooks' own change (not_started -> pending) may be pushed too, if it lands after the
  // subscription: each push, like the subscription, asks GET /api/me once.
  await settleEvents(stack);
  await quiet(seen);
  const afterSubscribing = seen.afterLast('subscribed');
  expect(afterSubscribing).toContain('GET /api/me');
  expect(afterSubscribing.filter((what) => what === 'GET /api/me')).toHaveLength(
    afterSubscribing.filter((what) => what === 'pushed').length + 1,
  );
  // From here on the page's timers run only when the test moves its clock.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  return { journey, page, seen, userId, channel };
}

/** A reviewer approves the user (POST .../decision), and the bus delivers what follows. */
async function approve(userId: string) {
  const decision = await api(`/api/admin/verifications/${encodeURIComponent(userId)}/decision`, {
    method: 'POST',
    token: adminToken,
    body: { decision: 'approved', reasonCode: 'identity_confirmed' },
  });
  expect(decision.status).toBe(200);
  await settleEvents(stack);
}

/** One task of the page's event loop (a MessageChannel round, which the page's clock does not hold). */
const nextTask = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );

/**
 * The approved screen stays 3 seconds (of the page's clock), asking nothing more, then opens the
 * dashboard, which shows the verification complete.
 */
async function expectDashboardAfterThreeSeconds(page: Page, seen: ReturnType<typeof record>) {
  const shown = seen.happenings.length;
  const requested = seen.everyRequest.length;
  await page.getByText('Taking you to your dashboard...').waitFor();
  await runClock(page, 2_900);
  // A redirect started by now would have asked for the dashboard's code (a lazy chunk) or, with it
  // at hand, changed the address: the page's own tasks run first.
  for (let turn = 0; turn < 3; turn++) await nextTask(page);
  expect(seen.everyRequest.slice(requested)).toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/auth/kyc-complete');
  expect(await approvedHeading(page).isVisible()).toBe(true);
  expect(seen.since(shown)).toEqual([]);
  await runClock(page, 100);
  // Straight to the segment's dashboard (ADR 0085).
  await page.waitForURL(`${stack.web}/commercial-dashboard`);
  await page.clock.resume();
  await page.getByRole('heading', { level: 1, name: 'Commercial Space Operations' }).waitFor();
}

describe('the open status screen learns of the decision by push', () => {
  it(
    'asks nothing while subscribed, then shows "Verification Approved" after one GET /api/me and opens /commercial-dashboard 3 s later',
    async () => {
      const { journey, page, seen, userId } = await onPendingStatusScreen();
      const subscribedState = seen.happenings.length;

      // Ten seconds with the channel up: polling would have asked after 1, 3 and 8 s.
      await runClock(page, 10_000);
      expect(seen.since(subscribedState)).toEqual([]);
      expect(await pendingHeading(page).isVisible()).toBe(true);

      await approve(userId);
      await approvedHeading(page).waitFor({ timeout: 15_000 });
      // The push, then the one GET /api/me it triggers, and the decided screen lets the channel go.
      await expect
        .poll(() => seen.since(subscribedState), eventually)
        .toEqual(['pushed', 'GET /api/me', 'channel closed']);
      await expect.poll(() => subscriptions(userId), eventually).toEqual([]);
      await expectDashboardAfterThreeSeconds(page, seen);

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    testTimeoutMs,
  );

  it(
    'polls while the channel is down, subscribes again, stops polling, and still gets the decision by push',
    async () => {
      const { journey, page, seen, userId, channel } = await onPendingStatusScreen();

      const dropped = await fetch(`${stack.realtime.httpDomain}/__local/connections/close`, {
        method: 'POST',
      });
      expect(dropped.status).toBe(200);
      await expect.poll(() => subscriptions(userId), eventually).toEqual([]);
      await expect.poll(() => seen.happenings.at(-1), eventually).toBe('channel closed');
      const closed = seen.happenings.length;

      // Nothing is asked until the first back-off has passed on the page's clock; then a poll
      // (GET /api/me) and the reconnect, both due 1 s after the loss.
      await runClock(page, 900);
      expect(seen.since(closed)).toEqual([]);
      await expect
        .poll(async () => {
          await runClock(page, 100, 100);
          return seen.since(closed)[0];
        }, eventually)
        .toBe('GET /api/me');

      // A new subscription, and the one GET /api/me it asks, then quiet: polling has stopped.
      await expect.poll(() => subscriptions(userId), eventually).toEqual([channel]);
      await expect
        .poll(() => seen.since(closed), eventually)
        .toEqual(['GET /api/me', 'subscribed', 'GET /api/me']);
      await expect.poll(seen.allAnswered, eventually).toBe(true);
      await runClock(page, 10_000);
      expect(seen.since(closed)).toEqual(['GET /api/me', 'subscribed', 'GET /api/me']);
      expect(await pendingHeading(page).isVisible()).toBe(true);

      const resubscribed = seen.happenings.length;
      await approve(userId);
      await approvedHeading(page).waitFor({ timeout: 15_000 });
      await expect
        .poll(() => seen.since(resubscribed), eventually)
        .toEqual(['pushed', 'GET /api/me', 'channel closed']);
      await expectDashboardAfterThreeSeconds(page, seen);

      expect(journey.problems).toEqual([]);
      await journey.context.close();
    },
    testTimeoutMs,
  );
});
