import { afterEach, describe, expect, it, vi } from 'vitest';
import { successResponse } from '#contracts/common.ts';
import { ApiError, api } from '#web/lib/api-client.ts';
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
