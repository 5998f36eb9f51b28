import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { chromiumPath, launchBrowser } from '#tests/helpers/browser.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import {
  managementToken,
  TEST_AUDIENCE,
  TEST_CLIENTS,
  TEST_NAMESPACE,
  TEST_USER,
  testIdpOptions,
} from '#tests/helpers/idp.ts';

const entry = fileURLToPath(new URL('../../fixtures/idp-spa/entry.ts', import.meta.url));

let idp: RunningIdp;
let appServer: Server;
let appOrigin: string;
let browser: Browser;
let page: Page;
const tokenGrants: string[] = [];
const foreignRequests: string[] = [];

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  // apt may still be installing chromium when the suite starts.
  await waitFor(() => existsSync(chromiumPath), 240_000, `${chromiumPath} to exist`);
  const idpPort = await freePort();
  const appPort = await freePort();
  appOrigin = `http://localhost:${appPort}`;
  idp = await startIdp(testIdpOptions({ port: idpPort, appOrigins: [appOrigin] }));

  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const config = JSON.stringify({ domain: idp.url, clientId: TEST_CLIENTS.spa, audience: TEST_AUDIENCE });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SPA test</title></head>
<body><h1>SPA test</h1><script>window.spaTestConfig = ${config};</script><script src="/app.js"></script></body></html>`;
  appServer = createServer((req, res) => {
    const isScript = req.url === '/app.js';
    res.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html; charset=utf-8' });
    res.end(isScript ? script : html);
  });
  await new Promise<void>((resolve) => appServer.listen(appPort, '127.0.0.1', resolve));

  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('request', (request) => {
    const origin = new URL(request.url()).origin;
    if (origin !== idp.url && origin !== appOrigin) foreignRequests.push(request.url());
    if (request.method() === 'POST' && request.url() === `${idp.url}/oauth/token`) {
      tokenGrants.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '?');
    }
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (appServer ? appServer.close(() => resolve()) : resolve()));
  await idp?.close();
});

async function appReady(): Promise<void> {
  await page.waitForFunction(() => window.spaTest !== undefined || window.spaTestError !== undefined);
  const error = await page.evaluate(() => window.spaTestError);
  if (error) throw new Error(error);
}

/** The refresh token auth0-spa-js keeps in its localStorage cache entry for the API audience. */
async function storedRefreshToken(): Promise<string | undefined> {
  return page.evaluate((audience) => {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i) ?? '';
      if (key.startsWith('@@auth0spajs@@') && key.includes(audience)) {
        const entry = JSON.parse(localStorage.getItem(key) ?? '{}') as { body?: { refresh_token?: string } };
        return entry.body?.refresh_token;
      }
    }
    return undefined;
  }, TEST_AUDIENCE);
}

async function verify(token: string) {
  const jwks = createRemoteJWKSet(new URL(`${idp.url}/.well-known/jwks.json`));
  return jwtVerify(token, jwks, { issuer: idp.issuer, audience: TEST_AUDIENCE, algorithms: ['RS256'] });
}

describe('@auth0/auth0-spa-js against the local IdP', () => {
  it('logs in with code + PKCE, refreshes with the refresh token, and reflects app_metadata changes', async () => {
    await page.goto(`${appOrigin}/`);
    await appReady();
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${idp.url}/u/login/`)),
      page.evaluate(() => window.spaTest?.login()),
    ]);
    // The IdP's own login page: labelled fields, no external resources.
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByLabel('Email address').fill(TEST_USER.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Wrong email or password.');

    await page.getByLabel('Email address').fill(TEST_USER.email);
    await page.getByLabel('Password').fill(TEST_USER.password);
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${appOrigin}/callback?`)),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    await appReady();
    await page.evaluate(() => window.spaTest?.handleCallback());
    expect(tokenGrants).toEqual(['authorization_code']);

    const first = await page.evaluate(() => window.spaTest?.token(false));
    expect(first).toBeTruthy();
    const firstClaims = (await verify(first as string)).payload;
    expect(firstClaims).toMatchObject({
      iss: idp.issuer,
      aud: TEST_AUDIENCE,
      azp: TEST_CLIENTS.spa,
      [`${TEST_NAMESPACE}role`]: 'user',
      [`${TEST_NAMESPACE}kyc_status`]: 'not_started',
      [`${TEST_NAMESPACE}organization_type`]: 'bank',
    });
    expect(String(firstClaims.scope).split(' ')).toEqual(
      expect.arrayContaining(['openid', 'offline_access']),
    );
    expect((firstClaims.exp ?? 0) - (firstClaims.iat ?? 0)).toBe(3600);
    const idClaims = await page.evaluate(() => window.spaTest?.idTokenClaims());
    expect(idClaims).toMatchObject({ email: TEST_USER.email, [`${TEST_NAMESPACE}role`]: 'user' });

    // A refresh (cache off) must go through the refresh_token grant and yield a new, valid token.
    const second = await page.evaluate(() => window.spaTest?.token(true));
    expect(tokenGrants).toEqual(['authorization_code', 'refresh_token']);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    const secondClaims = (await verify(second as string)).payload;
    expect(secondClaims.sub).toBe(firstClaims.sub);
    expect(secondClaims[`${TEST_NAMESPACE}kyc_status`]).toBe('not_started');

    // Change app_metadata through the Management API: the next refresh carries the new claims.
    const mgmt = await managementToken(idp.url);
    const patch = await fetch(`${idp.url}/api/v2/users/${encodeURIComponent(String(firstClaims.sub))}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ app_metadata: { kyc_status: 'approved', organization_type: 'defense' } }),
    });
    expect(patch.status).toBe(200);
    const third = await page.evaluate(() => window.spaTest?.token(true));
    expect(tokenGrants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
    const thirdClaims = (await verify(third as string)).payload;
    expect(thirdClaims[`${TEST_NAMESPACE}kyc_status`]).toBe('approved');
    expect(thirdClaims[`${TEST_NAMESPACE}role`]).toBe('user');
    expect(thirdClaims[`${TEST_NAMESPACE}organization_type`]).toBe('defense');
    const newIdClaims = await page.evaluate(() => window.spaTest?.idTokenClaims());
    expect(newIdClaims?.[`${TEST_NAMESPACE}kyc_status`]).toBe('approved');
    expect(decodeJwt(third as string).jti).not.toBe(decodeJwt(second as string).jti);
  }, 120_000);

  it('rotates the refresh token and rejects reuse of the old one', async () => {
    const before = await storedRefreshToken();
    expect(before).toBeTruthy();
    await page.evaluate(() => window.spaTest?.token(true));
    const after = await storedRefreshToken();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    const reuse = await fetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before as string,
        client_id: TEST_CLIENTS.spa,
      }),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
  }, 120_000);

  it("revokes the refresh token at /oauth/revoke from the site's origin, as the web's logout does first", async () => {
    const stored = await storedRefreshToken();
    expect(stored).toBeTruthy();
    const revocations: { body: URLSearchParams; status: number }[] = [];
    const seen = (response: import('playwright-core').Response) => {
      const request = response.request();
      if (request.method() === 'POST' && request.url() === `${idp.url}/oauth/revoke`) {
        revocations.push({ body: new URLSearchParams(request.postData() ?? ''), status: response.status() });
      }
    };
    page.on('response', seen);
    await page.evaluate(() => window.spaTest?.revoke());
    page.off('response', seen);
    // Auth0's shape for a public client: client_id and the token, no secret; 200 with no body.
    expect(revocations).toHaveLength(1);
    expect(revocations[0]?.status).toBe(200);
    expect(Object.fromEntries(revocations[0]?.body ?? [])).toEqual({
      client_id: TEST_CLIENTS.spa,
      token_type_hint: 'refresh_token',
      token: stored,
    });
    const after = await fetch(`${idp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: stored as string,
        client_id: TEST_CLIENTS.spa,
      }),
    });
    expect(after.status).toBe(400);
    expect(((await after.json()) as { error: string }).error).toBe('invalid_grant');
  }, 60_000);

  it('logs out through /v2/logout without a confirmation page and ends the IdP session', async () => {
    await Promise.all([
      page.waitForURL((u) => u.href === `${appOrigin}/`),
      page.evaluate(() => window.spaTest?.logout()),
    ]);
    await appReady();
    // With the IdP session gone, logging in again shows the login form.
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${idp.url}/u/login/`)),
      page.evaluate(() => window.spaTest?.login()),
    ]);
    expect(await page.getByLabel('Email address').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toContain(
      '/u/reset-password',
    );

    // A blocked user cannot log in through the form.
    const mgmt = await managementToken(idp.url);
    const created = await fetch(`${idp.url}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mgmt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'blocked-spa@example.com',
        password: 'Blocked-Pass-1',
        connection: 'Username-Password-Authentication',
        blocked: true,
      }),
    });
    expect(created.status).toBe(201);
    await page.getByLabel('Email address').fill('blocked-spa@example.com');
    await page.getByLabel('Password').fill('Blocked-Pass-1');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('blocked');
    expect(page.url().startsWith(`${idp.url}/u/login/`)).toBe(true);
    // Nothing outside the IdP and the app was fetched (no external fonts, scripts or styles).
    expect(foreignRequests).toEqual([]);
  }, 60_000);
});
