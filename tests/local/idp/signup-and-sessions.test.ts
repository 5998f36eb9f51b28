import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshTokenLifetimes, sessionMaximumSeconds } from '#contracts/session-lifetimes.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import {
  managementToken,
  passwordGrant,
  postToken,
  TEST_AUDIENCE,
  TEST_CLIENTS,
  TEST_NAMESPACE,
  TEST_USER,
  testIdpOptions,
} from '#tests/helpers/idp.ts';

// What the web's Log In, Log Out and the backend's email rule rely on from the identity provider,
// the way Auth0 behaves with public sign-up disabled on the database connection: no sign-up
// through the API or the login page, `prompt=login` forces the form over an existing session,
// logout returns to exactly the site origin, and a refresh carries the current `email_verified`.

let idp: RunningIdp;
let appOrigin: string;
let options: ReturnType<typeof testIdpOptions>;

beforeAll(async () => {
  appOrigin = `http://localhost:${await freePort()}`;
  options = testIdpOptions({ port: await freePort(), appOrigins: [appOrigin] });
  // As the local stack registers the site: the callback, and the origin with and without a slash.
  options.spa.redirectUris = [`${appOrigin}/auth/callback`];
  options.spa.postLogoutRedirectUris = [appOrigin, `${appOrigin}/`];
  idp = await startIdp(options);
});

afterAll(async () => {
  await idp?.close();
});

/** A browser's cookies for the identity provider (one host; paths do not matter to these tests). */
class Browser {
  readonly #cookies = new Map<string, string>();

  /** Follows redirects inside the identity provider; stops at the first page or at the app. */
  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    let next = new URL(url, idp.url);
    let method = init.method ?? 'GET';
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.origin !== idp.url) return { url: next, status: 0, html: '' };
      const response = await fetch(next, {
        method,
        redirect: 'manual',
        headers: {
          cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { body } : {}),
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
        if (expired) this.#cookies.delete(name.trim());
        else this.#cookies.set(name.trim(), value.trim());
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        next = new URL(location, next);
        method = 'GET';
        body = undefined;
        continue;
      }
      return { url: next, status: response.status, html: await response.text() };
    }
    throw new Error('too many redirects');
  }
}

/** The authorization request @auth0/auth0-spa-js sends (code + PKCE, the API audience). */
function authorizeUrl(extra: Record<string, string> = {}): string {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: TEST_CLIENTS.spa,
    response_type: 'code',
    response_mode: 'query',
    redirect_uri: `${appOrigin}/auth/callback`,
    scope: 'openid profile email offline_access',
    audience: TEST_AUDIENCE,
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${idp.url}/authorize?${params}`;
}

const isLoginForm = (html: string) => /<h1>Log in<\/h1>/.test(html) && /name="password"/.test(html);
const formAction = (html: string) => /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1] ?? '';
/** The hidden fields of a page's form, as a browser would post them. */
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input[^>]*>/g)]
      .map((m) => m[0])
      .filter((tag) => /type="hidden"/.test(tag))
      .map((tag) => [/name="([^"]*)"/.exec(tag)?.[1] ?? '', /value="([^"]*)"/.exec(tag)?.[1] ?? '']),
  );

async function logIn(browser: Browser, extra: Record<string, string> = {}) {
  const page = await browser.go(authorizeUrl(extra));
  expect(isLoginForm(page.html)).toBe(true);
  const done = await browser.go(formAction(page.html), {
    method: 'POST',
    form: { email: TEST_USER.email, password: TEST_USER.password },
  });
  expect(`${done.url.origin}${done.url.pathname}`).toBe(`${appOrigin}/auth/callback`);
  expect(done.url.searchParams.get('code')).toBeTruthy();
}

/** The web's sign-in: code + PKCE through the login form, then the code exchanged for tokens. */
async function spaSignIn(browser = new Browser(), account: { email: string; password: string } = TEST_USER) {
  const verifier = randomBytes(32).toString('base64url');
  const page = await browser.go(
    authorizeUrl({ code_challenge: createHash('sha256').update(verifier).digest('base64url') }),
  );
  const back = await browser.go(formAction(page.html), {
    method: 'POST',
    form: { email: account.email, password: account.password },
  });
  const tokens = await postToken(idp.url, {
    grant_type: 'authorization_code',
    client_id: TEST_CLIENTS.spa,
    code: back.url.searchParams.get('code') ?? '',
    code_verifier: verifier,
    redirect_uri: `${appOrigin}/auth/callback`,
  });
  expect(tokens.status).toBe(200);
  expect(tokens.body.refresh_token).toBeTruthy();
  return tokens.body;
}

/** The SPA's refresh (a public client: client_id, no secret). */
const spaRefresh = (refreshToken: string) =>
  postToken(idp.url, {
    grant_type: 'refresh_token',
    client_id: TEST_CLIENTS.spa,
    refresh_token: refreshToken,
  });

describe('public sign-up is disabled, as on every provisioned Auth0 connection', () => {
  it("answers POST /dbconnections/signup with Auth0's 400 and creates no account", async () => {
    const email = `signup-${randomBytes(4).toString('hex')}@example.com`;
    const response = await fetch(`${idp.url}/dbconnections/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: TEST_CLIENTS.spa,
        connection: 'Username-Password-Authentication',
        email,
        password: 'Sign-Up-Pass-1',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'public signup is disabled' });

    const mgmt = await managementToken(idp.url);
    const found = await fetch(`${idp.url}/api/v2/users-by-email?email=${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${mgmt}` },
    });
    expect(await found.json()).toEqual([]);
    expect((await passwordGrant(idp.url, email, 'Sign-Up-Pass-1')).status).toBe(403);
  });

  it('shows the login page, with no way to sign up, for screen_hint=signup', async () => {
    const page = await new Browser().go(authorizeUrl({ screen_hint: 'signup' }));
    expect(page.status).toBe(200);
    expect(page.url.pathname).toMatch(/^\/u\/login\//);
    expect(isLoginForm(page.html)).toBe(true);
    expect(page.html).not.toMatch(/sign[ -]?up|create (an |your )?account|register/i);
  });
});

describe('Log In with a screen hint and a forced prompt', () => {
  it('shows the login form for prompt=login and screen_hint=login even when a session exists', async () => {
    const browser = new Browser();
    await logIn(browser);

    // The session is there: a plain authorization request goes straight back to the app.
    const silent = await browser.go(authorizeUrl());
    expect(`${silent.url.origin}${silent.url.pathname}`).toBe(`${appOrigin}/auth/callback`);
    expect(silent.url.searchParams.get('code')).toBeTruthy();

    // What the web's Log In sends: the form again, whatever the session.
    const forced = await browser.go(authorizeUrl({ screen_hint: 'login', prompt: 'login' }));
    expect(forced.status).toBe(200);
    expect(isLoginForm(forced.html)).toBe(true);
    // And signing in there completes as usual.
    const done = await browser.go(formAction(forced.html), {
      method: 'POST',
      form: { email: TEST_USER.email, password: TEST_USER.password },
    });
    expect(done.url.searchParams.get('code')).toBeTruthy();
  });
});

describe('Log Out', () => {
  it('returns to exactly the site origin, with no query string, and ends the session', async () => {
    const browser = new Browser();
    await logIn(browser);

    const params = new URLSearchParams({ client_id: TEST_CLIENTS.spa, returnTo: appOrigin });
    const confirm = await browser.go(`${idp.url}/v2/logout?${params}`);
    // Auth0 logs out without asking: the page submits itself; a browser posts the form.
    expect(confirm.status).toBe(200);
    expect(hiddenFields(confirm.html)).toHaveProperty('logout', 'yes');
    const back = await browser.go(formAction(confirm.html), {
      method: 'POST',
      form: hiddenFields(confirm.html),
    });
    expect(back.url.href).toBe(`${appOrigin}/`);
    expect(back.url.search).toBe('');

    const again = await browser.go(authorizeUrl());
    expect(isLoginForm(again.html)).toBe(true);
  });
});

describe('the email_verified claim the API checks', () => {
  it('is false until the person verifies, and true on the next refresh-token exchange', async () => {
    const mgmt = await managementToken(idp.url);
    const email = `verify-${randomBytes(4).toString('hex')}@example.com`;
    const created = await fetch(`${idp.url}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: 'Verify-Pass-1',
        connection: 'Username-Password-Authentication',
        app_metadata: { role: 'user', organization_type: 'commercial' },
      }),
    });
    const user = (await created.json()) as { user_id: string };
    const first = await passwordGrant(idp.url, email, 'Verify-Pass-1');
    expect(decodeJwt(first.body.access_token as string)[`${TEST_NAMESPACE}email_verified`]).toBe(false);

    const verified = await fetch(`${idp.url}/api/v2/users/${encodeURIComponent(user.user_id)}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email_verified: true }),
    });
    expect(verified.status).toBe(200);

    const refreshed = await postToken(idp.url, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
      client_id: TEST_CLIENTS.test.clientId,
      client_secret: TEST_CLIENTS.test.clientSecret,
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token as string)[`${TEST_NAMESPACE}email_verified`]).toBe(true);
  });
});

describe("the web's refresh tokens end with the session rules, as provisioned on Auth0 (ADR 0074)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const minutes = (n: number) => n * 60_000;

  it('refuses, with invalid_grant, a refresh after the absolute lifetime even when every token was used in time', async () => {
    expect(refreshTokenLifetimes.absoluteSeconds).toBe(sessionMaximumSeconds);
    const signedInAt = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt });
    let refreshToken = (await spaSignIn()).refresh_token ?? '';
    // A refresh every 5 minutes, as the session rules do: each rotates the token and works...
    for (let at = 5; at < 60; at += 5) {
      vi.setSystemTime(signedInAt + minutes(at));
      const refreshed = await spaRefresh(refreshToken);
      expect(refreshed.status, `refresh at ${at} minutes`).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(refreshToken);
      refreshToken = refreshed.body.refresh_token ?? '';
    }
    // ...until 60 minutes after sign-in, although the last token is 5 minutes old.
    vi.setSystemTime(signedInAt + minutes(60) + 1000);
    const late = await spaRefresh(refreshToken);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');
  });

  it('refuses a refresh token left unused for longer than the idle lifetime, and honours one used just inside it', async () => {
    expect(refreshTokenLifetimes.idleSeconds).toBe(7 * 60);
    const signedInAt = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: signedInAt });
    const first = (await spaSignIn()).refresh_token ?? '';
    vi.setSystemTime(signedInAt + minutes(7) - 5000);
    const inTime = await spaRefresh(first);
    expect(inTime.status).toBe(200);

    vi.setSystemTime(signedInAt + minutes(7) - 5000 + minutes(7) + 1000);
    const idle = await spaRefresh(inTime.body.refresh_token ?? '');
    expect(idle.status).toBe(400);
    expect(idle.body.error).toBe('invalid_grant');
  });
});

describe("an administrator's session does not outlive the second factor (ADR 0074)", () => {
  it('denies the refresh of a session that signed in before a promotion to admin; a new sign-in, with the factor, refreshes', async () => {
    const mgmt = await managementToken(idp.url);
    const account = {
      email: `promoted-${randomBytes(4).toString('hex')}@example.com`,
      password: 'Promoted-Pass-1',
    };
    const created = await fetch(`${idp.url}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...account,
        connection: 'Username-Password-Authentication',
        app_metadata: { role: 'user', organization_type: 'commercial', kyc_status: 'approved' },
      }),
    });
    const { user_id } = (await created.json()) as { user_id: string };
    const before = await spaSignIn(new Browser(), account);
    const promoted = await fetch(`${idp.url}/api/v2/users/${encodeURIComponent(user_id)}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(promoted.status).toBe(200);

    // The session gave a password only: no admin token comes out of it.
    const refused = await spaRefresh(before.refresh_token ?? '');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'access_denied',
      error_description: 'An administrator must sign in again with a second factor.',
    });
    expect(refused.body.access_token).toBeUndefined();

    // Signing in again, the Action asks for the factor (the local provider counts it as given).
    const after = await spaSignIn(new Browser(), account);
    expect(decodeJwt(after.access_token ?? '')[`${TEST_NAMESPACE}role`]).toBe('admin');
    const refreshed = await spaRefresh(after.refresh_token ?? '');
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token ?? '')[`${TEST_NAMESPACE}role`]).toBe('admin');
  });
});

describe('a restart of the identity provider (ADR 0039)', () => {
  it('keeps the session, the grant and the refresh token: no one has to sign in again', async () => {
    const browser = new Browser();
    const verifier = randomBytes(32).toString('base64url');
    const page = await browser.go(
      authorizeUrl({ code_challenge: createHash('sha256').update(verifier).digest('base64url') }),
    );
    const back = await browser.go(formAction(page.html), {
      method: 'POST',
      form: { email: TEST_USER.email, password: TEST_USER.password },
    });
    const tokens = await postToken(idp.url, {
      grant_type: 'authorization_code',
      client_id: TEST_CLIENTS.spa,
      code: back.url.searchParams.get('code') ?? '',
      code_verifier: verifier,
      redirect_uri: `${appOrigin}/auth/callback`,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toBeTruthy();

    await idp.close();
    idp = await startIdp(options);

    // The SPA's refresh after the restart: the stored refresh token is still honoured (and rotated).
    const refreshed = await postToken(idp.url, {
      grant_type: 'refresh_token',
      client_id: TEST_CLIENTS.spa,
      refresh_token: tokens.body.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token ?? '').sub).toBe(
      decodeJwt(tokens.body.access_token ?? '').sub,
    );

    // The SPA's silent authentication: the session cookie still names a session, no login page.
    const silent = await browser.go(authorizeUrl({ prompt: 'none' }));
    expect(`${silent.url.origin}${silent.url.pathname}`).toBe(`${appOrigin}/auth/callback`);
    expect(silent.url.searchParams.get('error')).toBeNull();
    expect(silent.url.searchParams.get('code')).toBeTruthy();
  });
});
