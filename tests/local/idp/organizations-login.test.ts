import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionRunner } from '#local/idp/action-runner.ts';
import { type RunningIdp, startIdp } from '#local/idp/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import {
  managementToken,
  postToken,
  TEST_AUDIENCE,
  TEST_CLIENTS,
  TEST_NAMESPACE,
  TEST_USER,
  testIdpOptions,
} from '#tests/helpers/idp.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';

// The login parts of Auth0 Organizations in the local identity provider (ADR 0081), driven the
// way the web drives them: `/authorize` with `organization` (a member's tokens carry `org_id` and
// `org_name`, a non-member is refused to the redirect URI), with `invitation` (the invitee sets a
// password, is verified, becomes a member with the invitation's roles, once), and a refresh that
// keeps the organization.

let idp: RunningIdp;
let appOrigin: string;
let token: string;

beforeAll(async () => {
  appOrigin = `http://localhost:${await freePort()}`;
  const options = testIdpOptions({ port: await freePort(), appOrigins: [appOrigin] });
  options.spa.redirectUris = [`${appOrigin}/auth/callback`];
  idp = await startIdp(options);
  token = await managementToken(idp.url);
});

afterAll(async () => {
  await idp?.close();
});

async function api(method: string, path: string, body?: unknown) {
  const res = await managementFetch(`${idp.url}${path}`, {
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

/** A browser's cookies for the identity provider; follows its redirects, stops at the app. */
class Browser {
  readonly #cookies = new Map<string, string>();

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

const formAction = (html: string) => /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1] ?? '';

/** The web's sign-in request (code + PKCE, the API audience), with Auth0's extra parameters. */
function authorize(extra: Record<string, string>) {
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
  return { url: `${idp.url}/authorize?${params}`, verifier };
}

async function exchange(code: string, verifier: string) {
  const tokens = await postToken(idp.url, {
    grant_type: 'authorization_code',
    client_id: TEST_CLIENTS.spa,
    code,
    code_verifier: verifier,
    redirect_uri: `${appOrigin}/auth/callback`,
  });
  expect(tokens.status).toBe(200);
  return tokens.body;
}

/** Logs in through the form; answers where the provider sent the browser back to the app. */
async function logIn(extra: Record<string, string>, account: { email: string; password: string }) {
  const browser = new Browser();
  const request = authorize(extra);
  const page = await browser.go(request.url);
  expect(page.html).toContain('name="password"');
  const back = await browser.go(formAction(page.html), {
    method: 'POST',
    form: { email: account.email, password: account.password },
  });
  return { back: back.url, verifier: request.verifier, page: page.html };
}

let counter = 0;
const unique = (prefix: string) => {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
};

async function organizationWith(memberIds: string[]) {
  const created = await api('POST', '/api/v2/organizations', {
    name: unique('org'),
    display_name: 'Org Ltd',
  });
  expect(created.status).toBe(201);
  if (memberIds.length > 0) {
    expect(
      (await api('POST', `/api/v2/organizations/${created.body.id}/members`, { members: memberIds })).status,
    ).toBe(204);
  }
  return created.body as { id: string; name: string };
}

async function userIdOf(email: string): Promise<string> {
  const found = await api('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`);
  return found.body[0].user_id as string;
}

describe('a login through an organization', () => {
  it('gives a member tokens with org_id and org_name, and a refresh keeps them', async () => {
    const organization = await organizationWith([await userIdOf(TEST_USER.email)]);
    // By name as well as by id (the tenant lets names be used at /authorize).
    for (const parameter of [organization.id, organization.name]) {
      const { back, verifier, page } = await logIn({ organization: parameter }, TEST_USER);
      expect(page).toContain('Org Ltd');
      expect(`${back.origin}${back.pathname}`).toBe(`${appOrigin}/auth/callback`);
      const tokens = await exchange(back.searchParams.get('code') ?? '', verifier);
      const idClaims = decodeJwt(tokens.id_token ?? '');
      const accessClaims = decodeJwt(tokens.access_token ?? '');
      for (const claims of [idClaims, accessClaims]) {
        expect(claims).toMatchObject({ org_id: organization.id, org_name: organization.name });
      }
      // The Action's claims are there as before.
      expect(accessClaims[`${TEST_NAMESPACE}role`]).toBe('user');

      const refreshed = await postToken(idp.url, {
        grant_type: 'refresh_token',
        client_id: TEST_CLIENTS.spa,
        refresh_token: tokens.refresh_token ?? '',
      });
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token ?? '')).toMatchObject({ org_id: organization.id });
      expect(decodeJwt(refreshed.body.id_token ?? '')).toMatchObject({ org_id: organization.id });
    }
  });

  it('goes through the organization over an existing session: a member without the form, a non-member refused', async () => {
    const organization = await organizationWith([await userIdOf(TEST_USER.email)]);
    const browser = new Browser();
    const first = authorize({});
    const page = await browser.go(first.url);
    const plain = await browser.go(formAction(page.html), {
      method: 'POST',
      form: { email: TEST_USER.email, password: TEST_USER.password },
    });
    const plainTokens = await exchange(plain.url.searchParams.get('code') ?? '', first.verifier);
    expect(decodeJwt(plainTokens.access_token ?? '').org_id).toBeUndefined();

    // Signed in already: the organization's login needs no form, and its tokens say which. (Without
    // offline_access, so no prompt=consent forces the interaction: the grant's organization does.)
    const second = authorize({ organization: organization.id, scope: 'openid profile email' });
    const through = await browser.go(second.url);
    expect(through.url.origin).toBe(appOrigin);
    const orgTokens = await exchange(through.url.searchParams.get('code') ?? '', second.verifier);
    expect(decodeJwt(orgTokens.access_token ?? '')).toMatchObject({ org_id: organization.id });
    expect(decodeJwt(orgTokens.id_token ?? '')).toMatchObject({ org_id: organization.id });
    const withRefresh = authorize({ organization: organization.id });
    const withRefreshBack = await browser.go(withRefresh.url);
    const refreshable = await exchange(
      withRefreshBack.url.searchParams.get('code') ?? '',
      withRefresh.verifier,
    );

    // Back without the parameter: no org_id, and the organization's refresh token still has it.
    const third = authorize({ scope: 'openid profile email' });
    const back = await browser.go(third.url);
    const againTokens = await exchange(back.url.searchParams.get('code') ?? '', third.verifier);
    expect(decodeJwt(againTokens.access_token ?? '').org_id).toBeUndefined();
    const refreshed = await postToken(idp.url, {
      grant_type: 'refresh_token',
      client_id: TEST_CLIENTS.spa,
      refresh_token: refreshable.refresh_token ?? '',
    });
    expect(decodeJwt(refreshed.body.access_token ?? '')).toMatchObject({ org_id: organization.id });

    // Another organization the signed-in user is not a member of.
    const other = await organizationWith([]);
    const refused = await browser.go(
      authorize({ organization: other.id, scope: 'openid profile email' }).url,
    );
    expect(refused.url.origin).toBe(appOrigin);
    expect(refused.url.searchParams.get('error')).toBe('access_denied');
    // Silently (prompt=none) another organization needs the interaction it may not have.
    const silent = await browser.go(
      authorize({ organization: other.id, scope: 'openid profile email', prompt: 'none' }).url,
    );
    expect(silent.url.searchParams.get('error')).toBe('interaction_required');
  });

  it('issues no org_id for a login without the parameter', async () => {
    const { back, verifier } = await logIn({}, TEST_USER);
    const tokens = await exchange(back.searchParams.get('code') ?? '', verifier);
    expect(decodeJwt(tokens.access_token ?? '').org_id).toBeUndefined();
    expect(decodeJwt(tokens.id_token ?? '').org_id).toBeUndefined();
  });

  it('refuses a non-member with access_denied to the redirect URI', async () => {
    const organization = await organizationWith([]);
    const { back } = await logIn({ organization: organization.id }, TEST_USER);
    expect(`${back.origin}${back.pathname}`).toBe(`${appOrigin}/auth/callback`);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toContain(organization.id);
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses an unknown organization at /authorize', async () => {
    const page = await new Browser().go(authorize({ organization: 'org_doesnotexist' }).url);
    expect(page.url.origin).toBe(appOrigin);
    expect(page.url.searchParams.get('error')).toBe('invalid_request');
  });
});

describe('accepting an invitation', () => {
  async function invite(ttlSec?: number) {
    const role = await api('POST', '/api/v2/roles', { name: unique('org_member') });
    const organization = await organizationWith([]);
    const email = `${unique('invitee')}@example.com`;
    const created = await api('POST', `/api/v2/organizations/${organization.id}/invitations`, {
      inviter: { name: 'Alice Admin' },
      invitee: { email },
      client_id: TEST_CLIENTS.spa,
      roles: [role.body.id],
      // What the product's Action needs to let an account in.
      app_metadata: { role: 'user', kyc_status: 'not_started', organization_type: 'pharma' },
      send_invitation_email: false,
      ...(ttlSec === undefined ? {} : { ttl_sec: ttlSec }),
    });
    expect(created.status).toBe(201);
    const link = new URL(created.body.invitation_url);
    const params = {
      invitation: link.searchParams.get('invitation') ?? '',
      organization: link.searchParams.get('organization') ?? '',
    };
    return { organization, email, role: role.body, invitation: created.body, params };
  }

  it('signs the invitee up, verified, as a member with its roles, once; tokens carry org_id', async () => {
    const { organization, email, role, invitation, params } = await invite();
    const browser = new Browser();
    const request = authorize(params);
    const page = await browser.go(request.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Alice Admin has invited you to join Org Ltd');
    expect(page.html).toContain(`value="${email}"`);
    const back = await browser.go(formAction(page.html), {
      method: 'POST',
      form: { email: 'someone-else@example.com', password: 'Invitee-Pass-1' },
    });
    expect(`${back.url.origin}${back.url.pathname}`).toBe(`${appOrigin}/auth/callback`);
    const tokens = await exchange(back.url.searchParams.get('code') ?? '', request.verifier);
    const claims = decodeJwt(tokens.access_token ?? '');
    expect(claims).toMatchObject({ org_id: organization.id, [`${TEST_NAMESPACE}email_verified`]: true });
    expect(decodeJwt(tokens.id_token ?? '')).toMatchObject({
      org_id: organization.id,
      email,
      email_verified: true,
    });

    // The invited address, not what the form said; a member with the invitation's roles.
    const userId = await userIdOf(email);
    expect((await api('GET', `/api/v2/users/${encodeURIComponent(userId)}`)).body.email_verified).toBe(true);
    expect(
      (
        await api(
          'GET',
          `/api/v2/organizations/${organization.id}/members/${encodeURIComponent(userId)}/roles`,
        )
      ).body,
    ).toEqual([role]);
    // Used up: gone from the organization's invitations, and its link refused.
    expect(
      (await api('GET', `/api/v2/organizations/${organization.id}/invitations/${invitation.id}`)).status,
    ).toBe(404);
    const again = await new Browser().go(authorize(params).url);
    expect(again.url.origin).toBe(appOrigin);
    expect(again.url.searchParams.get('error')).toBe('invalid_request');

    // The new member signs in through the organization with the password they chose.
    const { back: member } = await logIn(
      { organization: organization.id },
      { email, password: 'Invitee-Pass-1' },
    );
    expect(member.searchParams.get('code')).toBeTruthy();
  });

  it('lets an existing account accept with its password', async () => {
    const { organization, params } = await invite();
    // The seeded user is invited by another invitation to the same organization.
    const created = await api('POST', `/api/v2/organizations/${organization.id}/invitations`, {
      inviter: { name: 'Alice Admin' },
      invitee: { email: TEST_USER.email },
      client_id: TEST_CLIENTS.spa,
      send_invitation_email: false,
    });
    const link = new URL(created.body.invitation_url);
    const browser = new Browser();
    const request = authorize({
      invitation: link.searchParams.get('invitation') ?? '',
      organization: params.organization,
    });
    const page = await browser.go(request.url);
    const wrong = await browser.go(formAction(page.html), {
      method: 'POST',
      form: { password: 'wrong-password' },
    });
    expect(wrong.status).toBe(401);
    const back = await browser.go(formAction(page.html), {
      method: 'POST',
      form: { password: TEST_USER.password },
    });
    const tokens = await exchange(back.url.searchParams.get('code') ?? '', request.verifier);
    expect(decodeJwt(tokens.access_token ?? '').org_id).toBe(organization.id);
  });

  it('refuses an expired invitation', async () => {
    const { params } = await invite(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const page = await new Browser().go(authorize(params).url);
    expect(page.url.origin).toBe(appOrigin);
    expect(page.url.searchParams.get('error')).toBe('invalid_request');
    expect(page.url.searchParams.get('error_description')).toContain('expired');
  });

  it('refuses an invitation without its organization, or with another', async () => {
    const { params } = await invite();
    const other = await organizationWith([]);
    for (const extra of [{ invitation: params.invitation }, { ...params, organization: other.id }]) {
      const page = await new Browser().go(authorize(extra).url);
      expect(page.url.searchParams.get('error')).toBe('invalid_request');
    }
  });
});

describe("the post-login Action's event.organization", () => {
  it('is { id, name, display_name, metadata } on an organization login, absent otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'org-action-'));
    const file = join(dir, 'action.cjs');
    writeFileSync(
      file,
      `exports.onExecutePostLogin = async (event, api) => {
  api.accessToken.setCustomClaim('seen', event.organization === undefined ? null : event.organization);
};`,
    );
    const runner = new ActionRunner({}, file);
    const user = {
      user_id: 'auth0|1',
      email: 'a@example.com',
      email_verified: true,
      name: 'A',
      nickname: 'a',
      picture: '',
      created_at: '',
      updated_at: '',
      app_metadata: {},
      user_metadata: {},
      logins_count: 0,
      blocked: false,
      password_hash: '',
    };
    const base = { user, client: { client_id: 'c', name: 'C' }, protocol: 'oidc-basic-profile' as const };
    const withOrg = await runner.run({
      ...base,
      requestedScopes: [],
      organization: { id: 'org_1', name: 'acme', display_name: 'Acme', metadata: { tier: 'gold' } },
    });
    expect(withOrg.accessTokenClaims.seen).toEqual({
      id: 'org_1',
      name: 'acme',
      display_name: 'Acme',
      metadata: { tier: 'gold' },
    });
    const without = await runner.run({ ...base, requestedScopes: [] });
    expect(without.accessTokenClaims.seen).toBeNull();
  });
});
