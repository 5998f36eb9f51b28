import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordRegistrationAgreements } from '#lambdas/domain/consent/record-consent.ts';
import {
  auth0OrganizationName,
  RegistrationInProgressError,
  registerOrganization,
} from '#lambdas/domain/registration/register-organization.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';
import {
  FakeDirectory,
  FakeLimiter,
  FakeMailer,
  FakeMarker,
  FakeOrganizationRecords,
  FakeOrganizations,
  FakeProfiles,
  FakeRegistrationStore,
  fixedClock,
} from '#tests/lambdas/domain/account/fakes.ts';
import { InMemoryConsentLedger, RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';

const password = 'Initial-Secret-Password-Nobody-Sees-1!';
const request = sampleRegistrationRequest;
const context = {
  requestId: 'req-1',
  userAgent: 'Mozilla/5.0 Firefox/128.0',
  ipAddress: '203.0.113.7',
  locale: 'en',
};

function setup() {
  const inProgress = new FakeMarker();
  const users = new FakeDirectory();
  const organizations = new FakeOrganizations();
  const organizationRecords = new FakeOrganizationRecords();
  const store = new FakeRegistrationStore();
  const profiles = new FakeProfiles();
  const ledger = new InMemoryConsentLedger();
  const mailer = new FakeMailer();
  const events = new RecordingPublisher();
  const limiter = new FakeLimiter(() => fixedClock().now().getTime());
  const register = registerOrganization({
    users,
    organizations,
    organizationRecords,
    store,
    profiles,
    ledger,
    recordAgreements: (input) => recordRegistrationAgreements({ ledger }, input),
    mailer,
    limiter,
    events,
    clock: fixedClock(),
    appUrl: 'https://app.example',
    issuer: 'https://tenant.example/',
    generatePassword: () => password,
    inProgress,
    // 10 ms of real time per pause (the use case's 20 s budget becomes 0.4 to 1 s): the holder's
    // agreements hash their documents with WebCrypto, whose answer needs the thread pool, which a
    // loaded machine may not run within the 40 to 100 event-loop turns a setImmediate wait gave.
    wait: () => new Promise((resolve) => setTimeout(resolve, 10)),
  });
  return {
    users,
    organizations,
    organizationRecords,
    store,
    profiles,
    ledger,
    mailer,
    events,
    inProgress,
    register,
  };
}

let logged: unknown[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
  }
});
afterEach(() => vi.restoreAllMocks());

describe('registerOrganization', () => {
  it('emails "you already have an account" to an existing address, whatever its case, and creates nothing', async () => {
    const s = setup();
    s.users.add({ email: 'ada@helix-labs.example' });
    const result = await s.register(request, context);
    expect(result.outcome).toBe('account_exists');
    expect(s.users.createCalls).toBe(0);
    expect(s.ledger.records).toEqual([]);
    expect(s.events.published).toEqual([]);
    expect(s.users.tickets).toEqual([]);
    expect(s.mailer.sent).toHaveLength(1);
    expect(s.mailer.sent[0]).toMatchObject({
      to: 'ada@helix-labs.example',
      subject: 'You already have an account',
    });
    expect(s.mailer.sent[0]?.text).toContain('https://app.example/auth/login');
  });

  it('sends at most 3 "you already have an account" emails a day to one address, and nothing after', async () => {
    const s = setup();
    s.users.add({ email: 'ada@helix-labs.example' });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await s.register(request, context)).outcome);
    expect(outcomes).toEqual([
      'account_exists',
      'account_exists',
      'account_exists',
      'account_exists_not_emailed',
      'account_exists_not_emailed',
    ]);
    expect(s.mailer.sent).toHaveLength(3);
    expect(s.users.createCalls).toBe(0);
  });

  it('counts "you already have an account" per mailbox: sub-addresses and case share the 3 a day (ADR 0072)', async () => {
    const s = setup();
    for (const email of ['ada@helix-labs.example', 'ada+1@helix-labs.example', 'ADA+2@Helix-Labs.example'])
      s.users.add({ email });
    const outcomes = [];
    for (const email of [
      'ada@helix-labs.example',
      'ada+1@helix-labs.example',
      'ADA+2@Helix-Labs.example',
      'ada+1@helix-labs.example',
    ])
      outcomes.push((await s.register({ ...request, responsibleEmail: email }, context)).outcome);
    expect(outcomes).toEqual([
      'account_exists',
      'account_exists',
      'account_exists',
      'account_exists_not_emailed',
    ]);
    expect(s.mailer.sent).toHaveLength(3);
  });

  it("sends login instructions that carry none of the registering person's words (ADR 0072)", async () => {
    const s = setup();
    const name = 'Your account is locked, call +1 555 0100';
    const organizationName = 'Security team: verify at evil.example';
    await s.register({ ...request, responsibleName: name, organizationName }, context);
    expect(s.mailer.sent).toHaveLength(1);
    const [mail] = s.mailer.sent;
    for (const part of [mail?.subject, mail?.text, mail?.html]) {
      expect(part).not.toContain('locked');
      expect(part).not.toContain('555');
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('Security team');
    }
    expect(mail?.text).toContain(s.users.tickets[0]?.url);
  });

  it('creates the user with exactly the product app_metadata and a password that never leaves the use case', async () => {
    const s = setup();
    const result = await s.register(request, context);
    expect(result.outcome).toBe('registered');
    const [user, ...others] = [...s.users.users.values()];
    expect(others).toEqual([]);
    expect(user).toMatchObject({
      email: 'ada@helix-labs.example',
      name: 'Ada Lovelace',
      password,
      appMetadata: {
        role: 'user',
        organization_type: 'defense',
        kyc_status: 'not_started',
        kyc_updated_at: fixedClock().now().toISOString(),
      },
    });
    expect(Object.keys(user?.appMetadata ?? {}).sort()).toEqual([
      'kyc_status',
      'kyc_updated_at',
      'organization_type',
      'role',
    ]);
    const everythingOutside = JSON.stringify([
      result,
      s.mailer.sent,
      s.events.published,
      s.ledger.records,
      [...s.store.registrations.values()],
      [...s.store.progress.values()],
      logged,
    ]);
    expect(everythingOutside).not.toContain(password);
  });

  it("writes the profile the signed-in screens read instead of Auth0, with what Auth0's answer holds (ADR 0059, 0062)", async () => {
    const s = setup();
    const { userId } = await s.register(request, context);
    expect(s.profiles.profiles.get(userId ?? '')).toEqual({
      userId,
      email: 'ada@helix-labs.example',
      name: 'Ada Lovelace',
      organizationName: request.organizationName,
      organizationType: 'defense',
      organizationId: [...s.organizations.organizations.keys()][0],
      // What Auth0 holds, from the create's answer: the first sync needs no read.
      auth0Kyc: { status: 'not_started', updatedAt: fixedClock().now().toISOString() },
      auth0Unsettled: false,
      // The language the person registered in (issue 28).
      registrationLocale: 'en',
    });
  });

  it("writes a German registration's language on the registration and the profile, and emails its login instructions in German (issue 28)", async () => {
    const s = setup();
    const { userId } = await s.register(request, { ...context, locale: 'de' });
    expect((await s.store.getRegistration(userId ?? ''))?.locale).toBe('de');
    expect(s.profiles.profiles.get(userId ?? '')?.registrationLocale).toBe('de');
    expect(s.ledger.records.map((r) => r.locale)).toEqual(['de', 'de', 'de']);
    expect(s.mailer.sent).toHaveLength(1);
    expect(s.mailer.sent[0]?.subject).toBe('Ihre Anleitung zur Anmeldung');
    expect(s.mailer.sent[0]?.html).toContain('<html lang="de">');
  });

  it('answers a German registration of an address with an account in German', async () => {
    const s = setup();
    s.users.add({ email: 'ada@helix-labs.example' });
    await s.register(request, { ...context, locale: 'de' });
    expect(s.mailer.sent.map((m) => m.subject)).toEqual(['Sie haben bereits ein Konto']);
  });

  it('records the three registration agreements for the new subject and issuer', async () => {
    const s = setup();
    const { userId } = await s.register(request, context);
    expect(s.ledger.records.map((r) => r.purpose)).toEqual([
      'terms_of_service',
      'privacy_policy',
      'non_harmful_use',
    ]);
    for (const record of s.ledger.records) {
      expect(record).toMatchObject({
        subjectId: userId,
        issuer: 'https://tenant.example/',
        action: 'granted',
        method: 'registration_wizard',
        requestId: 'req-1',
      });
    }
  });

  it('sends one login-instructions email carrying the ticket link, and publishes one RegistrationSubmitted', async () => {
    const s = setup();
    const { userId } = await s.register(request, context);
    // Both the ticket's way back and the email's sign-in link go through the organization (ADR 0083).
    // The password link's way back is the welcome page, /registration-success (ADR 0086).
    const organization = [...s.organizations.organizations.keys()][0];
    const signIn = `https://app.example/auth/login?organization=${organization}`;
    const welcome = `https://app.example/registration-success?organization=${organization}`;
    expect(s.users.tickets).toEqual([
      { userId, resultUrl: welcome, url: expect.stringContaining('ticket=T1') },
    ]);
    expect(s.mailer.sent).toHaveLength(1);
    expect(s.mailer.sent[0]?.to).toBe('ada@helix-labs.example');
    expect(s.mailer.sent[0]?.text).toContain(s.users.tickets[0]?.url);
    expect(s.mailer.sent[0]?.text).toContain(signIn);
    expect(s.events.published).toEqual([
      {
        detailType: 'RegistrationSubmitted',
        detail: {
          userId,
          organizationName: 'Helix Labs',
          organizationType: 'defense',
          occurredAt: '2026-11-21T07:00:00.000Z',
        },
      },
    ]);
    expect(s.store.registrations.get(userId ?? '')).toMatchObject({
      email: 'ada@helix-labs.example',
      organizationName: 'Helix Labs',
    });
  });

  it('"Resend" (the same registration again) sends the login instructions with a new link, within the 3 a day, while the link is unused (ADR 0086)', async () => {
    const s = setup();
    const { userId } = await s.register(request, context);
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push((await s.register(request, context)).outcome);
    expect(outcomes).toEqual([
      'login_instructions_resent',
      'login_instructions_resent',
      'login_instructions_resent',
      'account_exists_not_emailed',
    ]);
    expect(s.mailer.sent.map((m) => m.subject)).toEqual(Array(4).fill('Your login instructions'));
    // Each with its own new link; nothing else created or recorded again.
    expect(new Set(s.users.tickets.map((t) => t.url)).size).toBe(4);
    expect(s.users.tickets.every((t) => t.userId === userId)).toBe(true);
    expect(s.mailer.sent[3]?.text).toContain(s.users.tickets[3]?.url);
    expect(s.users.users.size).toBe(1);
    expect(s.ledger.records).toHaveLength(3);
    expect(s.events.published).toHaveLength(1);
  });

  it('"Resend" after the password link was used (the address verified) is "you already have an account"', async () => {
    const s = setup();
    const { userId } = await s.register(request, context);
    const user = [...s.users.users.values()].find((u) => u.userId === userId);
    if (!user) throw new Error('no user');
    user.emailVerified = true;
    expect((await s.register(request, context)).outcome).toBe('account_exists');
    expect(s.mailer.sent.map((m) => m.subject)).toEqual([
      'Your login instructions',
      'You already have an account',
    ]);
    expect(s.users.tickets).toHaveLength(1);
  });

  it('keeps the ticket URL out of its answer and out of the logs', async () => {
    const s = setup();
    const result = await s.register(request, context);
    expect(JSON.stringify([result, logged])).not.toContain('ticket=');
  });

  it.each([
    ['the email fails', (s: ReturnType<typeof setup>) => (s.mailer.failNext = true)],
    ['the event fails', (s: ReturnType<typeof setup>) => (s.events.failNext = 1)],
    [
      'the create answer is lost after the user was created',
      (s: ReturnType<typeof setup>) => (s.users.loseNextCreateAnswer = true),
    ],
  ])('completes on retry after %s, without a second user or duplicate steps', async (_name, breakOnce) => {
    const s = setup();
    breakOnce(s);
    await expect(s.register(request, context)).rejects.toThrow();
    const retried = await s.register(request, context);
    expect(retried.outcome).toBe('registered');
    expect(s.users.users.size).toBe(1);
    expect(s.ledger.records).toHaveLength(3);
    expect(s.mailer.sent.filter((m) => m.subject === 'Your login instructions')).toHaveLength(1);
    expect(s.mailer.sent.filter((m) => m.subject === 'You already have an account')).toHaveLength(0);
    expect(s.events.published).toHaveLength(1);
    // A third identical request after completion (the page's "Resend", ADR 0086): the password
    // link was never used, so the login instructions go out again.
    expect((await s.register(request, context)).outcome).toBe('login_instructions_resent');
    expect(s.users.users.size).toBe(1);
  });

  it('continues with the user when its own create answers 409 after a lost first attempt', async () => {
    const s = setup();
    s.users.conflictAfterNextCreate = true;
    const result = await s.register(request, context);
    expect(result.outcome).toBe('registered');
    expect(s.users.users.size).toBe(1);
    expect(s.mailer.sent.map((m) => m.subject)).toEqual(['Your login instructions']);
  });

  it('does not adopt an existing admin account even while a registration for its address is unfinished', async () => {
    const s = setup();
    await s.store.saveProgress({ email: 'ada@helix-labs.example', startedAt: '2026-11-21T06:59:00.000Z' });
    s.users.add({ email: 'ada@helix-labs.example', appMetadata: { role: 'admin' } });
    expect((await s.register(request, context)).outcome).toBe('account_exists');
    expect(s.users.tickets).toEqual([]);
    expect(s.ledger.records).toEqual([]);
  });

  it('runs concurrent registrations of one new address one at a time: one user, one login email, one set of agreements', async () => {
    const s = setup();
    const outcomes = await Promise.all(
      [request, { ...request, responsibleEmail: 'ADA@helix-labs.example' }, request].map((r) =>
        s.register(r, context),
      ),
    );
    // The two that waited find this address's own registration complete and its password link
    // unused: its login instructions again (ADR 0086), never a second user.
    expect(outcomes.map((o) => o.outcome).sort()).toEqual([
      'login_instructions_resent',
      'login_instructions_resent',
      'registered',
    ]);
    expect(s.users.users.size).toBe(1);
    expect(s.ledger.records).toHaveLength(3);
    expect(s.mailer.sent.map((m) => m.subject).sort()).toEqual([
      'Your login instructions',
      'Your login instructions',
      'Your login instructions',
    ]);
  });

  it('gives the event back when another registration of the address holds it past the wait, having done nothing', async () => {
    const s = setup();
    // Another invocation is registering this address and does not finish.
    s.inProgress.take = async () => false;
    await expect(s.register(request, context)).rejects.toBeInstanceOf(RegistrationInProgressError);
    expect(s.users.createCalls).toBe(0);
    expect(s.mailer.sent).toEqual([]);
    expect(s.store.progress.size).toBe(0);
  });

  it('lets the address go when a step fails, so the retried event can finish the registration', async () => {
    const s = setup();
    s.mailer.failNext = true;
    await expect(s.register(request, context)).rejects.toThrow('SES throttled');
    expect([...s.inProgress.state.values()]).toEqual(['released']);
    expect((await s.register(request, context)).outcome).toBe('registered');
    expect(s.mailer.sent.map((m) => m.subject)).toEqual(['Your login instructions']);
    // The address is not kept as the marker's id: only its hash.
    expect(JSON.stringify([...s.inProgress.state.keys()])).not.toContain('helix-labs');
  });

  describe('the Auth0 organization (ADR 0083)', () => {
    it('creates the organization with the user as its org_admin, in three calls, and records its id everywhere', async () => {
      const s = setup();
      const { userId } = await s.register(request, context);
      expect(s.organizations.calls).toEqual(['create', 'addMember']);
      const [organization] = [...s.organizations.organizations.values()];
      expect(organization?.name).toMatch(/^[a-z0-9_-]{1,50}$/);
      expect(organization?.displayName).toBe(request.organizationName);
      expect(organization?.metadata).toEqual({ organization_type: 'defense', registered_by: userId });
      expect([...(organization?.members.get(userId ?? '') ?? [])]).toEqual(['org_admin']);
      const progress = await s.store.getProgress('ada@helix-labs.example');
      expect(progress).toMatchObject({ organizationId: organization?.id, organizationJoined: true });
      expect((await s.store.getRegistration(userId ?? ''))?.organizationId).toBe(organization?.id);
      expect(s.profiles.profiles.get(userId ?? '')?.organizationId).toBe(organization?.id);
      // The product's own record, which GET /api/organizations/{id} reads instead of Auth0.
      expect(s.organizationRecords.records.get(organization?.id ?? '')).toEqual({
        organizationId: organization?.id,
        displayName: request.organizationName,
        organizationType: 'defense',
        registeredBy: userId,
        // The address, so an erasure of it finds the record with the person's others (ADR 0077).
        email: 'ada@helix-labs.example',
        createdAt: fixedClock().now().toISOString(),
      });
      // No second PATCH of the user: app_metadata stays what the create wrote.
      expect(s.users.patches).toEqual([]);
    });

    it('finds its own organization by the saved name when the create answer was lost, and creates no second one', async () => {
      const s = setup();
      s.organizations.loseNextCreateAnswer = true;
      await expect(s.register(request, context)).rejects.toThrow('socket hang up');
      expect((await s.register(request, context)).outcome).toBe('registered');
      expect(s.organizations.organizations.size).toBe(1);
      expect(s.organizations.calls).toEqual(['create', 'create', 'getByName', 'addMember']);
      expect(s.mailer.sent.map((m) => m.subject)).toEqual(['Your login instructions']);
    });

    it('does not create the organization again once its id is recorded; the membership is repeated until recorded', async () => {
      const s = setup();
      const addMember = s.organizations.addMember.bind(s.organizations);
      let failures = 1;
      s.organizations.addMember = async (...args) => {
        if (failures-- > 0) throw new Error('Auth0 unavailable');
        return addMember(...args);
      };
      await expect(s.register(request, context)).rejects.toThrow('Auth0 unavailable');
      await s.register(request, context);
      expect(s.organizations.organizations.size).toBe(1);
      expect(s.organizations.calls.filter((c) => c === 'create')).toHaveLength(1);
    });

    it('refuses to adopt an organization of that name that another registration created', async () => {
      const s = setup();
      s.organizations.loseNextCreateAnswer = true;
      await expect(s.register(request, context)).rejects.toThrow();
      const [organization] = [...s.organizations.organizations.values()];
      if (organization) organization.metadata.registered_by = 'auth0|someone-else';
      await expect(s.register(request, context)).rejects.toThrow('another registration');
      // The next retry picks another name and finishes.
      expect((await s.register(request, context)).outcome).toBe('registered');
      expect(s.organizations.organizations.size).toBe(2);
    });
  });

  describe('auth0OrganizationName', () => {
    it.each([
      ['Helix Labs GmbH', 'helix-labs-gmbh-0a1b2c3d'],
      ['  Ärzte & Söhne — Zürich ', 'arzte-sohne-zurich-0a1b2c3d'],
      ['株式会社', 'org-0a1b2c3d'],
      ['A'.repeat(80), `${'a'.repeat(41)}-0a1b2c3d`],
    ])('%s -> %s', (name, expected) => {
      const result = auth0OrganizationName(name, '0a1b2c3d');
      expect(result).toBe(expected);
      expect(result).toMatch(/^[a-z0-9_-]{1,50}$/);
    });
  });
});
