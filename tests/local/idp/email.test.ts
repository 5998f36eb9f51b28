import type { Server } from 'node:http';
import sesServer from 'aws-ses-v2-local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, passwordGrant, TEST_CLIENTS, testIdpOptions } from '#tests/helpers/idp.ts';

interface StoredEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

let idp: RunningIdp;
let ses: Server;
let sesUrl: string;
let token: string;

beforeAll(async () => {
  const sesPort = await freePort();
  ses = await sesServer({ host: '127.0.0.1', port: sesPort });
  sesUrl = `http://127.0.0.1:${sesPort}`;
  idp = await startIdp(testIdpOptions({ port: await freePort(), sesEndpoint: sesUrl }));
  token = await managementToken(idp.url);
});

afterAll(async () => {
  await idp?.close();
  await new Promise<void>((resolve) => (ses ? ses.close(() => resolve()) : resolve()));
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${idp.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

async function createUser(email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api('POST', '/api/v2/users', {
    email,
    password: 'Initial-Pass-1',
    connection: 'Username-Password-Authentication',
    // What registration writes: the post-login Action lets no other account sign in.
    app_metadata: { role: 'user', organization_type: 'commercial' },
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.user_id as string;
}

async function mailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address));
}

function linkIn(mail: StoredEmail): string {
  const match = /(http:\/\/localhost:\d+\/\S+)/.exec(mail.body.text ?? '');
  if (!match?.[1]) throw new Error(`no link in ${mail.body.text}`);
  return match[1];
}

describe('verification email', () => {
  it('is sent through local SES and its link marks the email verified (once)', async () => {
    const id = await createUser('verify-me@example.com');
    const job = await api('POST', '/api/v2/jobs/verification-email', {
      user_id: id,
      client_id: TEST_CLIENTS.spa,
    });
    expect(job.status).toBe(201);
    expect(job.body).toMatchObject({ type: 'verification_email', status: 'pending' });
    expect(job.body.id).toMatch(/^job_/);

    const [mail] = await mailsTo('verify-me@example.com');
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(mail.from).toBe('no-reply@platform.local');
    expect(mail.body.html).toContain('<a href=');
    const link = linkIn(mail);
    expect(link.startsWith(`${idp.issuer}u/email-verification?ticket=`)).toBe(true);

    expect((await api('GET', `/api/v2/users/${encodeURIComponent(id)}`)).body.email_verified).toBe(false);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Email verified');
    expect((await api('GET', `/api/v2/users/${encodeURIComponent(id)}`)).body.email_verified).toBe(true);
    expect((await fetch(link)).status).toBe(400);
  });

  it('is sent when a user is created with verify_email', async () => {
    await createUser('created-verify@example.com', { verify_email: true });
    expect(await mailsTo('created-verify@example.com')).toHaveLength(1);
  });
});

describe('password-change ticket', () => {
  it('shows a page that sets the password, then the password grant works with it', async () => {
    const id = await createUser('ticket@example.com');
    const res = await api('POST', '/api/v2/tickets/password-change', {
      user_id: id,
      result_url: 'http://localhost:5173/login?from=ticket',
      ttl_sec: 3600,
      mark_email_as_verified: true,
      includeEmailInRedirect: true,
    });
    expect(res.status).toBe(201);
    const ticketUrl = res.body.ticket as string;
    expect(ticketUrl).toMatch(new RegExp(`^${idp.issuer}lo/reset\\?ticket=[\\w-]+#$`));
    // Auth0 does not email tickets: nothing went out.
    expect(await mailsTo('ticket@example.com')).toHaveLength(0);

    const form = await fetch(ticketUrl);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('type="password"');
    const ticket = new URL(ticketUrl).searchParams.get('ticket') as string;

    const submit = (password: string, confirm: string) =>
      fetch(`${idp.url}/lo/reset`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ticket, password, confirm }),
      });
    expect((await submit('short', 'short')).status).toBe(400);
    expect((await submit('Long-Enough-1', 'Different-1')).status).toBe(400);
    const done = await submit('Brand-New-Pass-1', 'Brand-New-Pass-1');
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('http://localhost:5173/login');
    expect(location.searchParams.get('from')).toBe('ticket');
    expect(location.searchParams.get('success')).toBe('true');
    expect(location.searchParams.get('email')).toBe('ticket@example.com');

    expect((await passwordGrant(idp.url, 'ticket@example.com', 'Initial-Pass-1')).status).toBe(403);
    expect((await passwordGrant(idp.url, 'ticket@example.com', 'Brand-New-Pass-1')).status).toBe(200);
    expect((await api('GET', `/api/v2/users/${encodeURIComponent(id)}`)).body.email_verified).toBe(true);
    // Single use.
    expect((await submit('Another-Pass-12', 'Another-Pass-12')).status).toBe(400);
  });
});

describe('POST /dbconnections/change_password', () => {
  it('emails a working reset link, and answers the same for unknown emails', async () => {
    await createUser('forgot@example.com');
    const call = (email: string) =>
      fetch(`${idp.url}/dbconnections/change_password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: TEST_CLIENTS.spa,
          email,
          connection: 'Username-Password-Authentication',
        }),
      });
    const known = await call('forgot@example.com');
    const unknown = await call('nobody-here@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const knownText = await known.text();
    expect(knownText).toBe("We've just sent you an email to reset your password.");
    expect(await unknown.text()).toBe(knownText);
    expect(await mailsTo('nobody-here@example.com')).toHaveLength(0);

    const [mail] = await mailsTo('forgot@example.com');
    if (!mail) throw new Error('no reset email');
    const link = linkIn(mail);
    const ticket = new URL(link).searchParams.get('ticket') as string;
    expect((await fetch(link)).status).toBe(200);
    const done = await fetch(`${idp.url}/lo/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ticket, password: 'Reset-Pass-123', confirm: 'Reset-Pass-123' }),
    });
    expect(done.status).toBe(200);
    expect((await passwordGrant(idp.url, 'forgot@example.com', 'Reset-Pass-123')).status).toBe(200);
  });

  it('is reachable from the login page through the forgot-password form', async () => {
    await createUser('forgot-form@example.com');
    const page = await fetch(`${idp.url}/u/reset-password?client_id=${TEST_CLIENTS.spa}`);
    expect(await page.text()).toContain('name="email"');
    const res = await fetch(`${idp.url}/u/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: TEST_CLIENTS.spa, email: 'forgot-form@example.com' }),
    });
    expect(await res.text()).toContain('sent you an email');
    expect(await mailsTo('forgot-form@example.com')).toHaveLength(1);
  });
});
