import { afterEach, describe, expect, it, vi } from 'vitest';
import { listVerificationsResponse, verificationDecisionResponse } from '#contracts/admin-verifications.ts';
import { successResponse } from '#contracts/common.ts';
import { healthResponse } from '#contracts/health.ts';
import { meResponse } from '#contracts/me.ts';
import { signedInRouteKeys } from '#contracts/signed-in-route-keys.ts';
import { verificationEmailResponse } from '#contracts/verification-email.ts';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { type ApiClient, ApiError, createApiClient } from '#web/lib/api-client.ts';
import { ConfigError, parseWebConfig } from '#web/lib/config.ts';
import { api } from '#web/lib/public-api.ts';

afterEach(() => vi.unstubAllGlobals());

function answer(response: Response | Error) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (response instanceof Error) throw response;
      return response;
    }),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('returns the validated body of a success', async () => {
    answer(
      new Response('{"success":true}', { status: 201, headers: { 'Content-Type': 'application/json' } }),
    );
    await expect(
      api.call('CreateWaitlistEntry', { email: 'a@b.co' }, { response: successResponse }),
    ).resolves.toEqual({
      success: true,
    });
  });

  it('turns a problem+json answer into an ApiError with its title, detail and field errors', async () => {
    const body = {
      type: 'https://errors/validation',
      title: 'Invalid request',
      status: 400,
      detail: 'One field is wrong',
      errors: [{ field: 'email', message: 'Nope' }],
    };
    answer(
      new Response(JSON.stringify(body), {
        status: 400,
        headers: { 'Content-Type': 'application/problem+json' },
      }),
    );

    const error = await failure(
      api.call('CreateWaitlistEntry', { email: '' }, { response: successResponse }),
    );
    expect(error).toMatchObject({ status: 400, title: 'Invalid request', detail: 'One field is wrong' });
    expect(error.errors).toEqual(body.errors);
    expect(error.fieldError('email')).toBe('Nope');
  });

  it('reports an error page that is not problem+json with its status', async () => {
    answer(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await failure(api.call('GetHealth', { response: healthResponse }))).toMatchObject({
      status: 502,
      errors: [],
    });
  });

  it('reports a network failure as status 0', async () => {
    answer(new TypeError('Failed to fetch'));
    expect(await failure(api.call('GetHealth', { response: healthResponse }))).toMatchObject({ status: 0 });
  });

  it('rejects a success body that breaks the contract', async () => {
    answer(
      new Response('{"success":"yes"}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    expect(
      await failure(api.call('CreateWaitlistEntry', { email: 'a@b.co' }, { response: successResponse })),
    ).toMatchObject({
      title: 'Unexpected response',
    });
  });
});

describe('web config', () => {
  const valid = {
    stage: 'dev',
    auth0: {
      domain: 'tenant.eu.auth0.com',
      clientId: 'c',
      audience: 'a',
      claimsNamespace: 'https://x.test/',
    },
    persona: { environmentId: 'env' },
  };

  it('accepts a valid config', () => {
    expect(parseWebConfig(valid)).toEqual(valid);
  });

  it('names every bad key, not only the first', () => {
    const bad = {
      ...valid,
      stage: '',
      extra: 1,
      auth0: { ...valid.auth0, claimsNamespace: 'nope' },
      persona: {},
    };
    expect(() => parseWebConfig(bad)).toThrow(ConfigError);
    const message = (() => {
      try {
        parseWebConfig(bad);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const key of ['stage', 'extra', 'auth0.claimsNamespace', 'persona.environmentId']) {
      expect(message).toContain(`${key}:`);
    }
  });
});

describe('api client with a session', () => {
  it('sends the bearer token from the token provider', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(201, { success: true }));
    vi.stubGlobal('fetch', fetchMock);
    const client = createApiClient(signedInRouteKeys, {
      getAccessToken: async () => 'token-123',
      onUnauthorized: vi.fn(),
    });

    await client.call('SendVerificationEmail', { response: verificationEmailResponse });

    expect(new Headers(fetchMock.mock.calls[0]?.[1].headers).get('Authorization')).toBe('Bearer token-123');
  });

  it('sends no Authorization header from the public client', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(201, { success: true }));
    vi.stubGlobal('fetch', fetchMock);

    await api.call('CreateWaitlistEntry', { email: 'a@b.co' }, { response: successResponse });

    expect(new Headers(fetchMock.mock.calls[0]?.[1].headers).has('Authorization')).toBe(false);
  });

  it('turns a 401 into the session-expired path and still rejects the call', async () => {
    answer(problemJson(401, { type: 'https://x/problems/unauthorized', title: 'Unauthorized', status: 401 }));
    const onUnauthorized = vi.fn();
    const client = createApiClient(signedInRouteKeys, {
      getAccessToken: async () => 'expired',
      onUnauthorized,
    });

    const error = await failure(client.call('GetMe', { response: meResponse }));

    expect(error.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not call the API when no token can be had', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const client = createApiClient(signedInRouteKeys, {
      getAccessToken: async () => {
        throw new Error('login_required');
      },
      onUnauthorized: vi.fn(),
    });

    await expect(client.call('GetMe', { response: meResponse })).rejects.toThrow('login_required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps the problem type and the Retry-After seconds, so a screen can tell refusals apart', async () => {
    answer(
      problemJson(
        429,
        { type: 'https://x/problems/rate-limited', title: 'Too Many Requests', status: 429 },
        { 'Retry-After': '42' },
      ),
    );
    const client = createApiClient(signedInRouteKeys, {
      getAccessToken: async () => 't',
      onUnauthorized: vi.fn(),
    });

    const error = await failure(
      client.call('SendVerificationEmail', { response: verificationEmailResponse }),
    );

    expect(error.type).toBe('https://x/problems/rate-limited');
    expect(error.is('https://x/problems/rate-limited')).toBe(true);
    expect(error.retryAfterSeconds).toBe(42);
  });
});

describe('api client calls a route by its id', () => {
  it("fills the path parameters (one segment each) and the query from the route's row", async () => {
    // Only the requests matter here: every answer is an empty object, refused by its schema.
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    const client = createApiClient(signedInRouteKeys, {
      getAccessToken: async () => 't',
      onUnauthorized: vi.fn(),
    });

    await client
      .call('ListVerifications', { query: { status: 'rejected' }, response: listVerificationsResponse })
      .catch(() => undefined);
    await client
      .call(
        'DecideVerification',
        { decision: 'approved', reasonCode: 'identity_confirmed' },
        { params: { userId: 'auth0|a/b' }, response: verificationDecisionResponse },
      )
      .catch(() => undefined);

    expect(fetchMock.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      'GET /api/admin/verifications?status=rejected',
      'POST /api/admin/verifications/auth0%7Ca%2Fb/decision',
    ]);
  });

  // What tests/web/lib/api-routes.test.ts checked by scanning the source, the compiler now refuses:
  // a path that is no route, and a route on the wrong client. Never called; `npm run typecheck`
  // fails when a line marked @ts-expect-error compiles.
  it('takes only the ids of its own routes, with their body, parameters and answer (checked by tsc)', () => {
    const decision = { decision: 'approved', reasonCode: 'identity_confirmed' } as const;
    const refused = (session: ApiClient) => [
      // @ts-expect-error: no route has this id
      api.call('GetHealthz', { response: healthResponse }),
      // @ts-expect-error: a `user` route on the public client (it would go without the token)
      api.call('GetMe', { response: meResponse }),
      // @ts-expect-error: a public route on the session's client (it would send the token)
      session.call('GetHealth', { response: healthResponse }),
      // @ts-expect-error: the persona webhook is no client's route
      api.call('ReceivePersonaWebhook', { response: successResponse }),
      // @ts-expect-error: the path parameter is missing
      session.call('DecideVerification', decision, { response: verificationDecisionResponse }),
      // @ts-expect-error: another route's answer schema
      session.call('GetMe', { response: verificationEmailResponse }),
      // @ts-expect-error: a body the contract does not take
      api.call('CreateWaitlistEntry', { mail: 'a@b.co' }, { response: successResponse }),
      // @ts-expect-error: a query value the contract does not take
      session.call('ListVerifications', { query: { status: 'open' }, response: listVerificationsResponse }),
    ];
    expect(refused).toBeTypeOf('function');
  });
});
