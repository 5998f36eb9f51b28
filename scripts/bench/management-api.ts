import { randomBytes } from 'node:crypto';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import type { ManagementApiStats } from '#local/idp/rate-limit.ts';
import type { StackInfo } from '#local/stack.ts';
import {
  identityVerificationConsent,
  mailbox,
  passwordToken,
  personaEvent,
  postWebhook,
  settleEvents,
  subscribe,
  webApi,
} from '#scripts/lib/local-stack-client.ts';

// Issue 22, item 6: the Management API calls the product spends, counted by the local identity
// provider (`GET|DELETE /__local/management-api/stats`, ADR 0061) around phases in which the bench
// itself makes no Management API call (its tokens come from `/oauth/token`, which is not counted;
// the password is set on the identity provider's ticket page, as a person sets it):
//   - per onboarded organization, registration to approved on the auto-approval path: registration,
//     the login-instructions email's password ticket, a token, consent, an inquiry, Persona's
//     `inquiry.completed` and `inquiry.approved` webhooks, every event target settled; a few
//     organizations one after another, the figure per organization (budget <= 6);
//   - per `GET /api/me` and per status check (what an open status screen does for one check: open
//     its push channel, GET /api/me, and take a fresh token as it does when the status changed):
//     budget 0 each.
// Counts, not timings: independent of the machine and of the plan, as long as nothing is refused
// (a 429 is a request too, and the retry another); the bench's stack runs at Self Service
// (ADR 0063), and the figures report the 429s beside the calls.

/** What the identity provider's stats control answers (declared once, beside its counters). */
export type { ManagementApiStats };

export interface ManagementApiFigures {
  plan: string;
  /** Organizations onboarded one after another, and how many ended approved. */
  onboardings: number;
  approved: number;
  /** The onboarding phase's counts (all organizations together). */
  onboarding: ManagementApiStats;
  me: { requests: number; stats: ManagementApiStats };
  statusChecks: { checks: number; stats: ManagementApiStats };
}

/** The identity provider's counters: `GET` reads them, `DELETE` reads and zeroes them. */
export async function managementApiStats(
  stack: StackInfo,
  method: 'GET' | 'DELETE',
): Promise<ManagementApiStats> {
  const response = await fetch(stack.idp.managementApi.statsUrl, { method });
  if (response.status !== 200) throw new Error(`the identity provider counts no calls (${response.status})`);
  return (await response.json()) as ManagementApiStats;
}

/** `GET /api/v2/users/{id}: 2, POST ...: 1` (most first); `none` for no calls. */
export const breakdown = (counts: Record<string, number>, per = 1) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(
      ([key, count]) => `${key}: ${Number.isInteger(count / per) ? count / per : (count / per).toFixed(2)}`,
    )
    .join(', ') || 'none';

interface Onboarded {
  email: string;
  password: string;
  token: string;
  userId: string;
  inquiryId: string;
}

/** One organization from registration to approved, through the API as a person and Persona reach it. */
async function onboard(stack: StackInfo): Promise<Onboarded> {
  const api = webApi(stack);
  const email = `bench-${randomBytes(6).toString('hex')}@onboarding.example`;
  const registration = await api('/api/registrations', {
    method: 'POST',
    body: {
      responsibleName: 'Grace Hopper',
      responsibleTitle: 'Director',
      responsibleEmail: email,
      responsiblePhone: '+1 555 0100',
      organizationName: 'Bench Bio',
      organizationUrl: 'https://bench-bio.example',
      organizationType: 'commercial',
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    },
  });
  if (registration.status !== 201) throw new Error(`registration answered ${registration.status}`);
  // The account work and the login-instructions email follow the answer (ADR 0033).
  await settleEvents(stack);
  const mail = (await mailbox(stack)).find((entry) => entry.destination.to.includes(email));
  const ticketUrl = /(http:\/\/\S+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(mail?.body.text ?? '')?.[1];
  if (!ticketUrl) throw new Error(`no password link reached ${email}`);
  const ticket = new URL(ticketUrl).searchParams.get('ticket') ?? '';
  const password = `Bench-${randomBytes(9).toString('base64url')}-1`;
  const reset = await fetch(`${stack.idp.issuer}lo/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, password, confirm: password }).toString(),
    redirect: 'manual',
  });
  await reset.arrayBuffer();
  const token = await passwordToken(stack, email, password);
  const userId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;

  const consent = await api('/api/consents', { method: 'POST', token, body: identityVerificationConsent });
  if (consent.status !== 201) throw new Error(`consent answered ${consent.status}`);
  const inquiry = await api('/api/me/kyc/inquiry', { method: 'POST', token });
  if (inquiry.status !== 200) throw new Error(`starting an inquiry answered ${inquiry.status}`);
  const { inquiryId } = (await inquiry.json()) as { inquiryId: string };
  const user = { userId, inquiryId };
  const base = Date.now();
  for (const [offset, name] of ['inquiry.completed', 'inquiry.approved'].entries()) {
    const answer = await postWebhook(stack, personaEvent(name, user, new Date(base + offset * 1000)));
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the ${name} webhook answered ${answer.status}`);
    await settleEvents(stack);
  }
  return { email, password, token, userId, inquiryId };
}

export async function measureManagementApiCalls(
  stack: StackInfo,
  { onboardings = 3, meRequests = 50, statusChecks = 10 } = {},
): Promise<ManagementApiFigures> {
  const api = webApi(stack);
  await settleEvents(stack);
  await managementApiStats(stack, 'DELETE');
  const organizations: Onboarded[] = [];
  for (let index = 0; index < onboardings; index++) organizations.push(await onboard(stack));
  await settleEvents(stack);
  const onboarding = await managementApiStats(stack, 'DELETE');

  let approved = 0;
  for (const organization of organizations) {
    const me = await api('/api/me', { token: organization.token });
    const body = (await me.json()) as { kycStatus?: string };
    if (me.status === 200 && body.kycStatus === 'approved') approved += 1;
  }

  await managementApiStats(stack, 'DELETE');
  for (let index = 0; index < meRequests; index++) {
    const organization = organizations[index % organizations.length] as Onboarded;
    const me = await api('/api/me', { token: organization.token });
    await me.arrayBuffer();
    if (me.status !== 200) throw new Error(`GET /api/me answered ${me.status}`);
  }
  const me = await managementApiStats(stack, 'DELETE');

  for (let index = 0; index < statusChecks; index++) {
    const organization = organizations[index % organizations.length] as Onboarded;
    const channel = await subscribe(stack, organization.token, kycChannelPath(organization.userId) ?? '');
    try {
      if (channel.answer.type !== 'subscribe_success')
        throw new Error(`the status channel refused: ${JSON.stringify(channel.answer)}`);
      const answer = await api('/api/me', { token: organization.token });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`GET /api/me answered ${answer.status}`);
      organization.token = await passwordToken(stack, organization.email, organization.password);
    } finally {
      channel.close();
    }
  }
  const checks = await managementApiStats(stack, 'DELETE');
  return {
    plan: onboarding.plan,
    onboardings,
    approved,
    onboarding,
    me: { requests: meRequests, stats: me },
    statusChecks: { checks: statusChecks, stats: checks },
  };
}
