import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import type { ManagementApiStats } from '#local/idp/rate-limit.ts';
import { signatureHeader } from '#local/persona/webhooks.ts';
import type { StackInfo } from '#local/stack.ts';
import { managementFetch, managementToken, passwordToken, tokenClaims } from '#scripts/lib/local-idp.ts';
import { type Subscriber, subscribe } from '#scripts/lib/local-stack-client.ts';
import { identityVerificationConsent, personaEvent } from '#scripts/lib/persona-events.ts';

// The onboarding load (issue 22, item 5; ADR 0062): organizations driven through the API of a
// running local stack, many at a time, each as a person does it: registration, the password set
// through the emailed ticket, a token, consent, an inquiry, Persona's webhooks (completed, then
// approved) and the decision, watched on the push channel while pending (GET /api/me when the
// channel does not bring it). One driver for `npm run test:load` (scripts/load/index.ts) and the
// small run in `npm test` (tests/e2e/onboarding-load.stack.test.ts).

export interface LoadOptions {
  organizations: number;
  /** Organizations in flight at once. */
  concurrency: number;
  /**
   * The first `concurrency` organizations arrive over this many seconds (default 10), not in one
   * millisecond: people do not press "Register" together, and one local process standing in for
   * every Lambda instance refused a same-millisecond burst of 400 with 503 (its DynamoDB client's
   * socket pool; in AWS each instance has its own). Later ones start as earlier ones finish.
   */
  rampSeconds?: number;
  /** Give up on one organization's step after this long (the registration backlog included). */
  stepTimeoutMs?: number;
  /** Give up waiting for the bus to drain after this long. */
  drainTimeoutMs?: number;
  /** How long an open status screen waits for the push before it asks GET /api/me (every 10 s). */
  pushGraceMs?: number;
  /** How many users' Auth0 records are also read through the Management API at the end. */
  managementApiSample?: number;
  log?: (line: string) => void;
}

/** One organization's run; times are `performance.now()` milliseconds. */
interface OrgRun {
  index: number;
  email: string;
  password: string;
  userId?: string;
  token?: string;
  inquiryId?: string;
  registeredAt?: number;
  loginMailAt?: number;
  /** Acknowledgement latency of each webhook (completed, approved). */
  acks: number[];
  approvedAckAt?: number;
  visibleAt?: number;
  seenBy?: 'push' | 'poll';
  error?: string;
}

export interface RouteCount {
  route: string;
  status: number;
  count: number;
}

export interface LoadReport {
  organizations: number;
  concurrency: number;
  rampSeconds: number;
  plan: { plan: string; burst: number; perSecond: number };
  checks: { name: string; pass: boolean; detail: string }[];
  pass: boolean;
  onboarded: number;
  seenByPush: number;
  seenByPoll: number;
  /** Every request the driver made to the product, by route and status. */
  responses: RouteCount[];
  /** The local gateway's own 503 (a function over its route timeout on this one process), resent. */
  gatewayTimeouts: number;
  /** Registrations sent again after a 503 with Retry-After, as the wizard tells a person to. */
  registrationRetries: number;
  ackP50Ms: number;
  visibleP50Ratio: number;
  visibleP95Ratio: number;
  visibleMaxRatio: number;
  /** Management API counters of the run (the tenant's, from the identity provider). */
  managementApi: {
    calls: number;
    rateLimited: number;
    peakPerSecond: number;
    /** Calls the tenant answered (each spent a token of the bucket) per onboarded organization. */
    perOrganization: number;
    /** The same with the 429s (refused, no token spent) counted too. */
    perOrganizationWith429s: number;
    byOperation: Record<string, number>;
    byClient: Record<string, number>;
  };
  bus: { accepted: number; throttles: number; deadLetters: number };
  /** Wall-clock figures, in seconds (the quota, not the CPU, sets them: see `quotaFloorSeconds`). */
  seconds: {
    total: number;
    /** From the first registration to the last login email: the registration backlog. */
    registrations: number;
    /** From the last webhook acknowledged to the bus empty: the backlog left when users were done. */
    drainAfterLastAck: number;
    /** From the first registration to the bus empty. */
    untilDrained: number;
    /** The Management API calls that succeeded, at the plan's sustained rate: no design drains faster. */
    quotaFloor: number;
  };
}

/** The routes a person calls: registration, then the signed-in ones (auth `user` in lambdas/routes.ts). */
const userRoutes = new Set([
  'POST /api/registrations',
  'GET /api/me',
  'POST /api/consents',
  'POST /api/me/kyc/inquiry',
]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** The local gateway's own timeout answer (ADR 0035), not the product's. */
const isGatewayTimeout = (status: number, body: string) =>
  status === 503 && body.trim() === '{"message":"Service Unavailable"}';

interface Mail {
  messageId: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** One poller of the local SES mailbox for every organization (not one read of the store each). */
function mailWatcher(stack: StackInfo) {
  const byAddress = new Map<string, Mail[]>();
  const seen = new Set<string>();
  let since = Math.floor(Date.now() / 1000) - 1;
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      try {
        const response = await fetch(`${stack.ses.url}/store?since=${since}`);
        const { emails } = (await response.json()) as { emails: Mail[] };
        for (const mail of emails) {
          if (seen.has(mail.messageId)) continue;
          seen.add(mail.messageId);
          since = Math.max(since, mail.at - 1);
          for (const to of mail.destination.to) {
            const address = to.toLowerCase();
            byAddress.set(address, [...(byAddress.get(address) ?? []), mail]);
          }
        }
      } catch {
        // The mailbox was busy: ask again.
      }
      await sleep(500);
    }
  };
  const running = poll();
  return {
    mails: (address: string) => byAddress.get(address.toLowerCase()) ?? [],
    async waitFor(address: string, match: (mail: Mail) => boolean, timeoutMs: number): Promise<Mail> {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = (byAddress.get(address.toLowerCase()) ?? []).find(match);
        if (found) return found;
        if (performance.now() > deadline) throw new Error(`no email for ${address} within ${timeoutMs} ms`);
        await sleep(250);
      }
    },
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

export async function runOnboardingLoad(stack: StackInfo, options: LoadOptions): Promise<LoadReport> {
  const log = options.log ?? (() => {});
  const stepTimeoutMs = options.stepTimeoutMs ?? 2 * 60 * 60_000;
  const pushGraceMs = options.pushGraceMs ?? 60_000;
  const responses = new Map<string, RouteCount>();
  let gatewayTimeouts = 0;
  let registrationRetries = 0;
  const namespace = stack.idp.claimsNamespace.endsWith('/')
    ? stack.idp.claimsNamespace
    : `${stack.idp.claimsNamespace}/`;

  /** A call through the web origin (CloudFront locally), counted; the gateway's own 503 is resent. */
  async function call(
    route: string,
    path: string,
    init: { method?: string; token?: string; body?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: string; ms: number; retryAfterSeconds: number | undefined }> {
    for (;;) {
      const started = performance.now();
      const response = await fetch(`${stack.web}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...init.headers,
        },
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      const body = await response.text();
      const ms = performance.now() - started;
      if (isGatewayTimeout(response.status, body)) {
        gatewayTimeouts += 1;
        await sleep(1_000);
        continue;
      }
      const key = `${route} ${response.status}`;
      const count = responses.get(key) ?? { route, status: response.status, count: 0 };
      count.count += 1;
      responses.set(key, count);
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        body,
        ms,
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      };
    }
  }

  const expect = (what: string, actual: number, expected: number, body: string) => {
    if (actual !== expected) throw new Error(`${what}: ${actual} ${body.slice(0, 200)}`);
  };

  const mail = mailWatcher(stack);
  const runs: OrgRun[] = Array.from({ length: options.organizations }, (_, index) => ({
    index,
    email: `load-${index}-${randomBytes(4).toString('hex')}@load-${index % 97}.example`,
    password: `Load-${randomBytes(9).toString('base64url')}`,
    acks: [],
  }));

  async function watchDecision(run: OrgRun, subscriber: Subscriber | undefined): Promise<void> {
    const approvedPushed = () =>
      subscriber?.events().some((event) => (event as { status?: unknown }).status === 'approved');
    const graceEnds = performance.now() + pushGraceMs;
    while (subscriber && performance.now() < graceEnds) {
      if (approvedPushed()) {
        run.visibleAt = subscriber.lastEventAt ?? performance.now();
        run.seenBy = 'push';
        return;
      }
      await sleep(20);
    }
    // The channel did not bring it: the screen polls GET /api/me every 10 s (ADR 0060).
    const deadline = performance.now() + stepTimeoutMs;
    while (performance.now() < deadline) {
      if (approvedPushed()) {
        run.visibleAt = subscriber?.lastEventAt ?? performance.now();
        run.seenBy = 'push';
        return;
      }
      const me = await call('GET /api/me', '/api/me', { token: run.token ?? '' });
      if (me.status === 200 && (JSON.parse(me.body) as { kycStatus?: string }).kycStatus === 'approved') {
        run.visibleAt = performance.now();
        run.seenBy = 'poll';
        return;
      }
      await sleep(10_000);
    }
    throw new Error('the decision never became visible');
  }

  async function onboard(run: OrgRun): Promise<void> {
    const form = JSON.stringify({
      responsibleName: `Load Tester ${run.index}`,
      responsibleTitle: 'Director',
      responsibleEmail: run.email,
      responsiblePhone: '+1 555 0100',
      organizationName: `Load Org ${run.index}`,
      organizationUrl: `https://load-${run.index}.example`,
      organizationType: run.index % 4 === 1 ? 'defense' : 'commercial',
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    });
    // A 503 problem+json with Retry-After (the stack too busy to store it) is what the wizard shows
    // as "try again in N seconds": the person sends the form again then, a few times.
    let registration = await call('POST /api/registrations', '/api/registrations', {
      method: 'POST',
      body: form,
    });
    for (
      let attempt = 1;
      registration.status === 503 && registration.retryAfterSeconds && attempt <= 5;
      attempt++
    ) {
      registrationRetries += 1;
      await sleep(registration.retryAfterSeconds * 1000);
      registration = await call('POST /api/registrations', '/api/registrations', {
        method: 'POST',
        body: form,
      });
    }
    expect('registration', registration.status, 201, registration.body);
    run.registeredAt = performance.now();

    // The login email comes once the bus has done the account work (the Auth0 backlog decides when).
    const login = await mail.waitFor(
      run.email,
      (m) => /\/lo\/reset\?ticket=/.test(m.body.text ?? ''),
      stepTimeoutMs,
    );
    run.loginMailAt = performance.now();
    const ticketUrl = /(http:\/\/\S+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(login.body.text ?? '')?.[1] ?? '';
    const ticket = new URL(ticketUrl).searchParams.get('ticket') ?? '';
    const reset = await fetch(`${stack.idp.issuer}lo/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ticket, password: run.password, confirm: run.password }).toString(),
      redirect: 'manual',
    });
    await reset.arrayBuffer();
    if (reset.status >= 400) throw new Error(`password reset: ${reset.status}`);
    run.token = await passwordToken(stack, run.email, run.password);
    const claims = tokenClaims(run.token);
    run.userId = String(claims.sub);
    if (claims[`${namespace}email_verified`] !== true && claims.email_verified !== true)
      throw new Error('the ticket did not mark the email verified');

    const consent = await call('POST /api/consents', '/api/consents', {
      method: 'POST',
      token: run.token,
      body: JSON.stringify(identityVerificationConsent),
    });
    expect('consent', consent.status, 201, consent.body);
    const inquiry = await call('POST /api/me/kyc/inquiry', '/api/me/kyc/inquiry', {
      method: 'POST',
      token: run.token,
    });
    expect('inquiry', inquiry.status, 200, inquiry.body);
    run.inquiryId = (JSON.parse(inquiry.body) as { inquiryId: string }).inquiryId;

    // The status screen while pending: the push channel, and one GET /api/me per subscription.
    const channel = kycChannelPath(run.userId);
    let subscriber: Subscriber | undefined;
    try {
      if (channel) subscriber = await subscribe(stack, run.token, channel);
      if (subscriber && subscriber.answer.type !== 'subscribe_success') {
        subscriber.close();
        subscriber = undefined;
      }
    } catch {
      subscriber = undefined;
    }
    try {
      const me = await call('GET /api/me', '/api/me', { token: run.token });
      expect('GET /api/me', me.status, 200, me.body);

      const user = { userId: run.userId, inquiryId: run.inquiryId };
      for (const name of ['inquiry.completed', 'inquiry.approved']) {
        const body = personaEvent(name, user, new Date());
        // Persona sends again what was not answered 2xx.
        for (let attempt = 1; ; attempt++) {
          const ack = await call('POST /api/webhooks/persona', '/api/webhooks/persona', {
            method: 'POST',
            body,
            headers: { 'persona-signature': signatureHeader(stack.persona.webhookSecret, body) },
          });
          if (ack.status === 200) {
            run.acks.push(ack.ms);
            break;
          }
          if (attempt >= 3) throw new Error(`webhook ${name}: ${ack.status} ${ack.body.slice(0, 200)}`);
          await sleep(1_000);
        }
        // Persona's events are a moment apart: completed, then approved.
        await sleep(5);
      }
      run.approvedAckAt = performance.now();
      await watchDecision(run, subscriber);
    } finally {
      subscriber?.close();
    }
  }

  const started = performance.now();
  log(`load: ${options.organizations} organizations, ${options.concurrency} at a time`);
  let next = 0;
  let done = 0;
  const progress = setInterval(() => {
    const registered = runs.filter((run) => run.loginMailAt !== undefined).length;
    log(
      `load: ${((performance.now() - started) / 1000).toFixed(0)} s: ${registered} registered, ${done} done, ${runs.filter((run) => run.error).length} failed`,
    );
  }, 30_000);
  progress.unref();
  const workers = Math.min(options.concurrency, options.organizations);
  const rampMs = (options.rampSeconds ?? 10) * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      await sleep((worker * rampMs) / workers);
      for (;;) {
        const run = runs[next++];
        if (!run) return;
        try {
          await onboard(run);
        } catch (error) {
          run.error = error instanceof Error ? error.message : String(error);
          log(`load: organization ${run.index} failed: ${run.error}`);
        }
        done += 1;
      }
    }),
  );
  clearInterval(progress);
  const usersDone = performance.now();

  // The backlog: what the bus still has to deliver (Auth0 syncs, emails) once every user is done.
  const drainDeadline = performance.now() + (options.drainTimeoutMs ?? 2 * 60 * 60_000);
  let busStats = { accepted: 0, pending: 0, throttles: 0, deadLetters: 0 };
  for (let quiet = 0; quiet < 2; ) {
    busStats = (await (await fetch(`${stack.api}/__local/events/stats`)).json()) as typeof busStats;
    quiet = busStats.pending === 0 ? quiet + 1 : 0;
    if (performance.now() > drainDeadline) break;
    if (quiet < 2) await sleep(500);
  }
  const drained = performance.now();
  log(`load: bus drained ${((drained - usersDone) / 1000).toFixed(1)} s after the last user was done`);

  // The run's Management API figures, taken (and zeroed) before the checks make calls of their own.
  const idpStats = (await (
    await fetch(stack.idp.managementApi.statsUrl, { method: 'DELETE' })
  ).json()) as ManagementApiStats;
  await sleep(1_500); // the mailbox poller's last round

  // Checks. Auth0's app_metadata is read through a fresh token: the post-login Action copies
  // kyc_status from app_metadata into a claim, so this costs no Management API call; a sample is
  // read through the Management API too.
  const onboarded = runs.filter((run) => run.visibleAt !== undefined && !run.error);
  const notSynced: string[] = [];
  const notApprovedInApi: string[] = [];
  const mailProblems: string[] = [];
  let cursor = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (;;) {
        const run = runs[cursor++];
        if (!run) return;
        if (!run.userId) {
          notSynced.push(`${run.index} (no account)`);
          continue;
        }
        try {
          const token = await passwordToken(stack, run.email, run.password);
          if (tokenClaims(token)[`${namespace}kyc_status`] !== 'approved') notSynced.push(String(run.index));
          const me = await call('GET /api/me', '/api/me', { token });
          if (me.status !== 200 || (JSON.parse(me.body) as { kycStatus?: string }).kycStatus !== 'approved')
            notApprovedInApi.push(String(run.index));
        } catch (error) {
          notSynced.push(`${run.index} (${String(error)})`);
        }
        const mails = mail.mails(run.email);
        const logins = mails.filter((m) => m.subject === 'Your login instructions').length;
        const decisions = mails.filter((m) => m.subject === 'Your identity is verified').length;
        if (logins !== 1 || decisions !== 1 || mails.length !== 2)
          mailProblems.push(`${run.index}: ${mails.map((m) => m.subject).join(' | ') || 'none'}`);
      }
    }),
  );
  const sample = runs.filter((run) => run.userId).slice(0, options.managementApiSample ?? 10);
  const sampleWrong: string[] = [];
  if (sample.length > 0) {
    const token = await managementToken(stack);
    for (const run of sample) {
      const response = await managementFetch(
        `${stack.idp.issuer}api/v2/users/${encodeURIComponent(run.userId ?? '')}`,
        { headers: { authorization: `Bearer ${token}` } },
        { maxWaitMs: 120_000 },
      );
      const user = (await response.json()) as { app_metadata?: { kyc_status?: string } };
      if (user.app_metadata?.kyc_status !== 'approved') sampleWrong.push(String(run.index));
    }
  }
  const deadLetters = (await (await fetch(`${stack.api}/__local/dead-letters`)).json()) as unknown[];
  await mail.stop();

  const acks = runs.flatMap((run) => run.acks);
  const ackP50Ms = percentile(acks, 50);
  const visible = onboarded.map((run) => (run.visibleAt as number) - (run.approvedAckAt as number));
  const serverErrors = [...responses.values()].filter((r) => r.status >= 500 && userRoutes.has(r.route));
  const otherServerErrors = [...responses.values()].filter(
    (r) => r.status >= 500 && !userRoutes.has(r.route),
  );
  const listed = (counts: RouteCount[]) =>
    counts.length ? counts.map((r) => `${r.route} ${r.status} x ${r.count}`).join(', ') : '0';
  const failed = runs.filter((run) => run.error);
  const calls = idpStats.calls;
  const succeeded = calls - idpStats.rateLimited;
  const checks = [
    {
      name: 'every organization onboarded and saw its decision',
      pass: onboarded.length === runs.length,
      detail: `${onboarded.length}/${runs.length}${
        failed.length
          ? `; failed: ${failed
              .slice(0, 5)
              .map((run) => `${run.index}: ${run.error}`)
              .join('; ')}`
          : ''
      }`,
    },
    {
      name: "no 5xx on the user routes (a person's calls: registration and the signed-in ones)",
      pass: serverErrors.length === 0,
      detail: `${listed(serverErrors)}; the other routes: ${listed(otherServerErrors)}`,
    },
    {
      name: 'every account synced to Auth0 (app_metadata kyc_status approved)',
      pass: notSynced.length === 0 && sampleWrong.length === 0,
      detail: `${runs.length - notSynced.length}/${runs.length} by the token's claim; ${sample.length - sampleWrong.length}/${sample.length} read through the Management API${notSynced.length ? `; not: ${notSynced.slice(0, 5).join(', ')}` : ''}`,
    },
    {
      name: 'GET /api/me says approved for every user',
      pass: notApprovedInApi.length === 0,
      detail: `${runs.length - notApprovedInApi.length}/${runs.length}`,
    },
    {
      name: 'nothing lost: no dead letters, the bus drained',
      pass: deadLetters.length === 0 && busStats.pending === 0,
      detail: `${deadLetters.length} dead letters, ${busStats.pending} deliveries pending`,
    },
    {
      name: 'one login email and one decision email per organization',
      pass: mailProblems.length === 0,
      detail: mailProblems.length ? mailProblems.slice(0, 5).join('; ') : `${runs.length} x 2`,
    },
  ];
  const registeredTimes = runs.flatMap((run) => (run.registeredAt === undefined ? [] : [run.registeredAt]));
  const loginTimes = runs.flatMap((run) => (run.loginMailAt === undefined ? [] : [run.loginMailAt]));
  const lastAck = Math.max(...runs.map((run) => run.approvedAckAt ?? 0));
  const firstRegistration = Math.min(...registeredTimes);
  const plan = stack.idp.managementApi;
  return {
    organizations: runs.length,
    concurrency: options.concurrency,
    rampSeconds: options.rampSeconds ?? 10,
    plan: { plan: plan.plan, burst: plan.burst, perSecond: plan.perSecond },
    checks,
    pass: checks.every((check) => check.pass),
    onboarded: onboarded.length,
    seenByPush: onboarded.filter((run) => run.seenBy === 'push').length,
    seenByPoll: onboarded.filter((run) => run.seenBy === 'poll').length,
    responses: [...responses.values()].sort((a, b) => a.route.localeCompare(b.route) || a.status - b.status),
    gatewayTimeouts,
    registrationRetries,
    ackP50Ms,
    visibleP50Ratio: percentile(visible, 50) / ackP50Ms,
    visibleP95Ratio: percentile(visible, 95) / ackP50Ms,
    visibleMaxRatio: percentile(visible, 100) / ackP50Ms,
    managementApi: {
      calls,
      rateLimited: idpStats.rateLimited,
      peakPerSecond: idpStats.peakPerSecond,
      perOrganization: succeeded / Math.max(1, onboarded.length),
      perOrganizationWith429s: calls / Math.max(1, onboarded.length),
      byOperation: idpStats.byOperation,
      byClient: idpStats.byClient,
    },
    bus: { accepted: busStats.accepted, throttles: busStats.throttles, deadLetters: deadLetters.length },
    seconds: {
      total: (drained - started) / 1000,
      registrations: loginTimes.length ? (Math.max(...loginTimes) - firstRegistration) / 1000 : Number.NaN,
      drainAfterLastAck: (drained - lastAck) / 1000,
      untilDrained: (drained - firstRegistration) / 1000,
      quotaFloor: succeeded / plan.perSecond,
    },
  };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The report as printed and as written into docs/reliability.md. */
export function formatReport(report: LoadReport): string {
  const m = report.managementApi;
  const lines = [
    `Onboarding load: ${report.organizations} organizations, ${report.concurrency} at a time (the first arriving over ${report.rampSeconds} s), Auth0 plan ${report.plan.plan} (burst ${report.plan.burst}, ${report.plan.perSecond}/s): ${report.pass ? 'PASS' : 'FAIL'}`,
    ...report.checks.map((check) => `  [${check.pass ? 'ok' : 'FAIL'}] ${check.name}: ${check.detail}`),
    `Decision visible after the approved webhook's acknowledgement: p50 ${fixed(report.visibleP50Ratio)}x, p95 ${fixed(report.visibleP95Ratio)}x, max ${fixed(report.visibleMaxRatio)}x the webhook acknowledgement's p50 (same run); by push ${report.seenByPush}, by GET /api/me ${report.seenByPoll}`,
    `Management API: ${m.calls} calls, ${m.rateLimited} of them answered 429 and absorbed; ${m.calls - m.rateLimited} answered = ${fixed(m.perOrganization, 2)} per onboarded organization (${fixed(m.perOrganizationWith429s, 2)} with the 429s); peak ${m.peakPerSecond}/s`,
    `  by operation: ${Object.entries(m.byOperation)
      .sort((a, b) => b[1] - a[1])
      .map(([operation, count]) => `${operation} ${count}`)
      .join(', ')}`,
    `Backlog: the last login email ${fixed(report.seconds.registrations, 0)} s after the first registration; the bus drained ${fixed(report.seconds.drainAfterLastAck, 0)} s after the last webhook acknowledgement, ${fixed(report.seconds.untilDrained, 0)} s after the first registration = ${fixed(report.seconds.untilDrained / report.seconds.quotaFloor, 2)}x the quota's floor (${fixed(report.seconds.quotaFloor, 0)} s: ${m.calls - m.rateLimited} answered calls at ${report.plan.perSecond}/s)`,
    `Bus: ${report.bus.accepted} events accepted, ${report.bus.throttles} throttles (reserved concurrency) absorbed, ${report.bus.deadLetters} dead letters`,
    `Requests: ${report.responses.map((r) => `${r.route} ${r.status} x ${r.count}`).join(', ')}; registrations sent again after 503 + Retry-After: ${report.registrationRetries}; local gateway timeouts resent: ${report.gatewayTimeouts}`,
  ];
  return lines.join('\n');
}
