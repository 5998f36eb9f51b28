import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { mailbox, managementToken, passwordToken } from '#tests/helpers/tokens.ts';

// POST /api/registrations through the local gateway, against the local identity provider,
// DynamoDB Local, SES and EventBridge: the whole journey up to the first sign-in.

const stack = inject('stack');
const db = stackDb(stack);

const uniqueEmail = () => `reg-${randomBytes(6).toString('hex')}@helix-labs.example`;

const validRequest = (email: string) => ({
  responsibleName: 'Ada <b>Lovelace</b>',
  responsibleTitle: 'Chief Scientist',
  responsibleEmail: email,
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Helix & Sons Labs',
  organizationUrl: 'https://helix-labs.example',
  organizationType: 'defense',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
});

const register = (body: unknown) =>
  fetch(`${stack.web}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Firefox/128.0' },
    body: JSON.stringify(body),
  });

async function idpUsersByEmail(email: string) {
  const response = await managementFetch(
    `${stack.idp.issuer}api/v2/users-by-email?email=${encodeURIComponent(email)}`,
    {
      headers: { authorization: `Bearer ${await managementToken(stack)}` },
    },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    user_id: string;
    app_metadata: Record<string, unknown>;
    email_verified: boolean;
  }[];
}

const mailTo = async (email: string) =>
  (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email));

const settle = () => fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });

/** Sets the first password from the login instructions' link, as the person does: it verifies the address. */
async function usePasswordLink(email: string): Promise<void> {
  const [instructions] = await mailTo(email);
  const ticketUrl = /(http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(
    instructions?.body.text ?? '',
  )?.[1];
  if (!ticketUrl) throw new Error('no ticket link in the email');
  const ticket = new URL(ticketUrl).searchParams.get('ticket') ?? '';
  const password = `Chosen-${randomBytes(8).toString('hex')}`;
  const reset = await fetch(`${stack.idp.issuer}lo/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, password, confirm: password }).toString(),
    redirect: 'manual',
  });
  expect([200, 302, 303]).toContain(reset.status);
  expect((await idpUsersByEmail(email))[0]?.email_verified).toBe(true);
}

describe('POST /api/registrations', () => {
  it('creates the user, records the agreements, stores the registration, emails login instructions and tells operations', async () => {
    const email = uniqueEmail();
    const response = await register(validRequest(email.toUpperCase()));
    expect(response.status).toBe(201);
    const answer = await response.text();
    expect(JSON.parse(answer)).toEqual({ success: true });
    // The account work runs after the answer (ProcessRegistration, ADR 0033).
    await settle();

    const users = await idpUsersByEmail(email);
    expect(users).toHaveLength(1);
    const [user] = users;
    if (!user) throw new Error('no user in the identity provider');
    expect(user.app_metadata).toEqual({
      role: 'user',
      organization_type: 'defense',
      kyc_status: 'not_started',
      kyc_updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    const ledger = (await db.scan('ConsentLedger')).filter((record) => record.subjectId === user.user_id);
    expect(ledger.map((record) => record.purpose).sort()).toEqual([
      'non_harmful_use',
      'privacy_policy',
      'terms_of_service',
    ]);
    expect(
      ledger.every((record) => record.method === 'registration_wizard' && record.action === 'granted'),
    ).toBe(true);
    expect(new Set(ledger.map((record) => record.issuer))).toEqual(new Set([stack.idp.issuer]));

    const registrations = (await db.scan('Submissions')).filter(
      (item) => item.pk === `REGISTRATION#${user.user_id}`,
    );
    expect(registrations).toEqual([
      expect.objectContaining({
        email,
        organizationName: 'Helix & Sons Labs',
        organizationType: 'defense',
        responsibleTitle: 'Chief Scientist',
      }),
    ]);
    expect(registrations[0]).not.toHaveProperty('website');
    expect(registrations[0]).not.toHaveProperty('termsAgreed');

    const [instructions, ...others] = await mailTo(email);
    expect(others).toHaveLength(0);
    expect(instructions?.subject).toBe('Your login instructions');
    // None of the registering person's words in an email to an address not yet proven (ADR 0072).
    expect(instructions?.body.html).not.toContain('Lovelace');
    expect(instructions?.body.text).not.toContain('Lovelace');
    expect(instructions?.body.html).not.toContain('Helix');
    const ticketUrl = /(http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(
      instructions?.body.text ?? '',
    )?.[1];
    expect(ticketUrl).toBeDefined();
    expect(answer).not.toContain('ticket');

    // The link sets a password on the identity provider's page; then the person can sign in.
    if (!ticketUrl) throw new Error('no ticket link in the email');
    const page = await fetch(ticketUrl);
    expect(page.status).toBe(200);
    const ticket = new URL(ticketUrl).searchParams.get('ticket') ?? '';
    const password = `Chosen-${randomBytes(8).toString('hex')}`;
    const reset = await fetch(`${stack.idp.issuer}lo/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ticket, password, confirm: password }).toString(),
      redirect: 'manual',
    });
    expect([200, 302, 303]).toContain(reset.status);
    const token = await passwordToken(stack, email, password);
    expect(token).toMatch(/^ey/);
    expect((await idpUsersByEmail(email))[0]?.email_verified).toBe(true);
    // Setting the password from the emailed link verified the address: the API sees it in the token.
    expect(decodeJwt(token)[`${stack.idp.claimsNamespace}email_verified`]).toBe(true);

    await settle();
    const operations = (await mailbox(stack)).filter(
      (mail) =>
        mail.destination.to.includes('operations@platform.local') && mail.body.text?.includes(user.user_id),
    );
    expect(operations).toHaveLength(1);
    expect(operations[0]?.body.text).toContain('Helix & Sons Labs');
    expect(operations[0]?.body.text).not.toContain(email);
  });

  it('answers the same for an address that has an account, creates nothing and emails that address', async () => {
    const email = uniqueEmail();
    expect((await register(validRequest(email))).status).toBe(201);
    await settle();
    await usePasswordLink(email);
    const ledgerBefore = (await db.scan('ConsentLedger')).length;

    const again = await register({ ...validRequest(email.toUpperCase()), organizationName: 'Another Org' });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ success: true });
    await settle();
    expect(await idpUsersByEmail(email)).toHaveLength(1);
    expect((await db.scan('ConsentLedger')).length).toBe(ledgerBefore);
    const mails = await mailTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Your login instructions',
      'You already have an account',
    ]);
    expect(mails[1]?.body.text).toContain(`/auth/login`);
  });

  it('sends an address that has an account at most 3 "you already have an account" emails a day', async () => {
    const email = uniqueEmail();
    expect((await register(validRequest(email))).status).toBe(201);
    await settle();
    await usePasswordLink(email);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const response = await register(validRequest(email));
      answers.push({ status: response.status, body: await response.text() });
      await settle();
    }
    // Over the limit the caller hears exactly what everyone hears; only the email is left out.
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ status: 201, body: JSON.stringify({ success: true }) })]),
    );
    expect((await mailTo(email)).map((mail) => mail.subject)).toEqual([
      'Your login instructions',
      'You already have an account',
      'You already have an account',
      'You already have an account',
    ]);
    // The limiter keeps a hash of the address, never the address.
    const limits = (await db.scan('Submissions')).filter((item) =>
      String(item.pk).startsWith('RATE#account-exists-email#'),
    );
    expect(limits.length).toBeGreaterThan(0);
    expect(JSON.stringify(limits)).not.toContain(email);
  });

  it('registering again while the password link is unused ("Resend") sends the login instructions again with a new link, at most 3 a day (ADR 0086)', async () => {
    const email = uniqueEmail();
    expect((await register(validRequest(email))).status).toBe(201);
    await settle();
    for (let i = 0; i < 4; i++) {
      const response = await register(validRequest(email));
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ success: true });
      await settle();
    }
    const mails = await mailTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(Array(4).fill('Your login instructions'));
    const links = mails.map((mail) => /\/lo\/reset\?ticket=([^\s"<#]+)/.exec(mail.body.text ?? '')?.[1]);
    expect(new Set(links).size).toBe(4);
    expect(await idpUsersByEmail(email)).toHaveLength(1);
    // The newest link works.
    const ticketUrl = /(http:\/\/localhost:\d+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(
      mails[3]?.body.text ?? '',
    )?.[1];
    expect((await fetch(ticketUrl ?? '')).status).toBe(200);
  });

  it('answers 201 to a filled honeypot and creates or sends nothing', async () => {
    const email = uniqueEmail();
    const response = await register({ ...validRequest(email), website: 'https://spam.example' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true });
    await settle();
    expect(await idpUsersByEmail(email)).toHaveLength(0);
    expect(await mailTo(email)).toHaveLength(0);
    expect((await db.scan('Submissions')).filter((item) => item.email === email)).toHaveLength(0);
  });

  it('refuses a personal email address with the product message and creates nothing', async () => {
    const email = `someone-${randomBytes(4).toString('hex')}@gmail.com`;
    const response = await register(validRequest(email));
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors).toContainEqual({
      field: 'responsibleEmail',
      message: businessEmailMessages.personal,
    });
    expect(await idpUsersByEmail(email)).toHaveLength(0);
  });

  it('refuses fields a caller must not set, such as app_metadata', async () => {
    const response = await register({ ...validRequest(uniqueEmail()), app_metadata: { role: 'admin' } });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toContainEqual({
      field: 'app_metadata',
      message: 'This field is not allowed.',
    });
  });
});
