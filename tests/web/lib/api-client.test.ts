import { afterEach, describe, expect, it, vi } from 'vitest';
import { successResponse } from '#contracts/common.ts';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { ApiError, api, createApiClient } from '#web/lib/api-client.ts';
import { ConfigError, parseWebConfig } from '#web/lib/config.ts';

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
    await expect(api.post('/api/waitlist', { email: 'a@b.co' }, successResponse)).resolves.toEqual({
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

    const error = await failure(api.post('/api/waitlist', {}, successResponse));
    expect(error).toMatchObject({ status: 400, title: 'Invalid request', detail: 'One field is wrong' });
    expect(error.errors).toEqual(body.errors);
    expect(error.fieldError('email')).toBe('Nope');
  });

  it('reports an error page that is not problem+json with its status', async () => {
    answer(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await failure(api.get('/api/health', successResponse))).toMatchObject({ status: 502, errors: [] });
  });

  it('reports a network failure as status 0', async () => {
    answer(new TypeError('Failed to fetch'));
    expect(await failure(api.get('/api/health', successResponse))).toMatchObject({ status: 0 });
  });

  it('rejects a success body that breaks the contract', async () => {
    answer(
      new Response('{"success":"yes"}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    expect(await failure(api.get('/api/health', successResponse))).toMatchObject({
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
    const client = createApiClient({ getAccessToken: async () => 'token-123', onUnauthorized: vi.fn() });

    await client.post('/api/consents', {}, successResponse);

    expect(new Headers(fetchMock.mock.calls[0]?.[1].headers).get('Authorization')).toBe('Bearer token-123');
  });

  it('sends no Authorization header from the public client', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => json(201, { success: true }));
    vi.stubGlobal('fetch', fetchMock);

    await api.post('/api/waitlist', { email: 'a@b.co' }, successResponse);

    expect(new Headers(fetchMock.mock.calls[0]?.[1].headers).has('Authorization')).toBe(false);
  });

  it('turns a 401 into the session-expired path and still rejects the call', async () => {
    answer(problemJson(401, { type: 'https://x/problems/unauthorized', title: 'Unauthorized', status: 401 }));
    const onUnauthorized = vi.fn();
    const client = createApiClient({ getAccessToken: async () => 'expired', onUnauthorized });

    const error = await failure(client.get('/api/me', successResponse));

    expect(error.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not call the API when no token can be had', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const client = createApiClient({
      getAccessToken: async () => {
        throw new Error('login_required');
      },
      onUnauthorized: vi.fn(),
    });

    await expect(client.get('/api/me', successResponse)).rejects.toThrow('login_required');
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
    const client = createApiClient({ getAccessToken: async () => 't', onUnauthorized: vi.fn() });

    const error = await failure(client.post('/api/me/verification-email', undefined, successResponse));

    expect(error.type).toBe('https://x/problems/rate-limited');
    expect(error.is('https://x/problems/rate-limited')).toBe(true);
    expect(error.retryAfterSeconds).toBe(42);
  });
});
