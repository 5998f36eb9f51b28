import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { StackInfo } from '#local/stack.ts';

// A login through an organization on the running stack, the way the web signs in (code + PKCE to
// its /auth/callback), plus Auth0's organization parameters (ADR 0081, ADR 0083).

export function organizationLogin(stack: StackInfo) {
  const idpOrigin = new URL(stack.idp.issuer).origin;
  const redirectUri = `${stack.web}/auth/callback`;

  /** A browser's cookies for the identity provider; follows its redirects, stops at the site. */
  class Browser {
    readonly #cookies = new Map<string, string>();

    async go(url: string, form?: Record<string, string>) {
      let next = new URL(url, idpOrigin);
      let body = form ? new URLSearchParams(form).toString() : undefined;
      for (let hop = 0; hop < 10; hop += 1) {
        if (next.origin !== idpOrigin) return { url: next, status: 0, html: '' };
        const response = await fetch(next, {
          method: body ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; '),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(body ? { body } : {}),
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const [name = '', value = ''] = pair.split('=');
          if (value === '') this.#cookies.delete(name.trim());
          else this.#cookies.set(name.trim(), value.trim());
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          next = new URL(location, next);
          body = undefined;
          continue;
        }
        return { url: next, status: response.status, html: await response.text() };
      }
      throw new Error('too many redirects');
    }
  }

  const formAction = (html: string) => /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1] ?? '';

  /** The web's authorization request, plus Auth0's organization parameters. */
  function authorize(extra: Record<string, string>) {
    const verifier = randomBytes(32).toString('base64url');
    const params = new URLSearchParams({
      client_id: stack.idp.spaClientId,
      response_type: 'code',
      response_mode: 'query',
      redirect_uri: redirectUri,
      scope: 'openid profile email offline_access',
      audience: stack.idp.audience,
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...extra,
    });
    return { url: `${stack.idp.issuer}authorize?${params}`, verifier };
  }

  async function tokenRequest(body: Record<string, string>) {
    const response = await fetch(`${stack.idp.issuer}oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: stack.idp.spaClientId, ...body }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { access_token?: string; id_token?: string; refresh_token?: string },
    };
  }

  const claimsOf = (jwt: string | undefined) =>
    JSON.parse(Buffer.from((jwt ?? '').split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;

  async function signIn(extra: Record<string, string>, form: Record<string, string>) {
    const browser = new Browser();
    const request = authorize(extra);
    const page = await browser.go(request.url);
    expect(page.status).toBe(200);
    const back = await browser.go(formAction(page.html), form);
    return { back: back.url, verifier: request.verifier };
  }

  async function exchange(code: string | null, verifier: string) {
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: code ?? '',
      code_verifier: verifier,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    return tokens.body;
  }

  return { Browser, formAction, authorize, tokenRequest, claimsOf, signIn, exchange, redirectUri };
}
