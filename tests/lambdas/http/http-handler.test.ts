import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '#contracts/api.ts';
import { problemTypes } from '#contracts/problem.ts';
import { defaultMaxBodyBytes } from '#contracts/route.ts';
import { clearSecretCache } from '#lambdas/adapters/secrets.ts';
import { RateLimitedError } from '#lambdas/domain/errors.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { routes } from '#lambdas/routes.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { metrics } from '#lambdas/runtime/metrics.ts';
import {
  httpApiEvent,
  lambdaContext,
  mockOriginSecret,
  testOriginSecret,
} from '#tests/fixtures/events/http-api-event.ts';

const parse = (body: string | undefined) => JSON.parse(body ?? 'null');
const secrets = mockClient(SecretsManagerClient);
beforeEach(() => {
  secrets.reset();
  clearSecretCache();
  mockOriginSecret(secrets);
});

describe('httpHandler', () => {
  const handle = vi.fn(async () => ({ status: 201, body: { success: true } }));
  const handler = httpHandler({ route: apiRoutes.CreateWaitlistEntry }, handle);

  it('passes a valid, parsed body to the handler and answers JSON', async () => {
    const result = await handler(httpApiEvent({ body: '{"email":"  Ada@Example.com "}' }), lambdaContext);
    expect(result.statusCode).toBe(201);
    expect(result.headers?.['content-type']).toBe('application/json');
    expect(parse(result.body)).toEqual({ success: true });
    expect(handle).toHaveBeenLastCalledWith(expect.objectContaining({ body: { email: 'Ada@Example.com' } }));
  });

  it('answers 400 problem+json with the field error and never calls the handler', async () => {
    handle.mockClear();
    const result = await handler(httpApiEvent({ body: '{"email":"not-an-email"}' }), lambdaContext);
    expect(result.statusCode).toBe(400);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(parse(result.body)).toMatchObject({
      type: problemTypes.validation,
      status: 400,
      title: 'Bad Request',
      errors: [{ field: 'email', message: 'Please enter a valid email address' }],
    });
    expect(handle).not.toHaveBeenCalled();
  });

  it('rejects unknown fields instead of ignoring them (no mass assignment)', async () => {
    const result = await handler(
      httpApiEvent({ body: '{"email":"ada@example.com","app_metadata":{"role":"admin"}}' }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(400);
    expect(parse(result.body).errors).toEqual([
      { field: 'app_metadata', message: 'This field is not allowed.' },
    ]);
  });

  it.each([
    ['invalid JSON', '{"email":', 'The request body is not valid JSON.'],
    ['a JSON array', '[]', 'The request body must be a JSON object.'],
    ['no body', undefined, 'The request body must be a JSON object.'],
  ])('answers 400 for %s', async (_name, body, detail) => {
    const result = await handler(
      httpApiEvent(body === undefined ? { body: undefined } : { body }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(400);
    expect(parse(result.body)).toMatchObject({ type: problemTypes.validation, detail });
  });

  it('keeps 64 KiB for every route but the Persona webhook', () => {
    expect(defaultMaxBodyBytes).toBe(64 * 1024);
    const ownLimits = routes.filter((route) => route.maxBodyBytes !== undefined).map((route) => route.id);
    expect(ownLimits).toEqual(['ReceivePersonaWebhook']);
  });

  it('answers 413 for a body over 64 KiB, counting decoded bytes of a base64 body', async () => {
    const big = JSON.stringify({ email: `${'a'.repeat(defaultMaxBodyBytes)}@example.com` });
    const tooBig = await handler(httpApiEvent({ body: big }), lambdaContext);
    expect(tooBig.statusCode).toBe(413);
    expect(parse(tooBig.body).type).toBe(problemTypes.payloadTooLarge);
    const encoded = Buffer.from(big).toString('base64');
    expect(
      (await handler(httpApiEvent({ body: encoded, isBase64Encoded: true }), lambdaContext)).statusCode,
    ).toBe(413);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const event = httpApiEvent({ headers: { ...httpApiEvent().headers, 'content-type': 'text/plain' } });
    const result = await handler(event, lambdaContext);
    expect(result.statusCode).toBe(415);
    expect(parse(result.body).type).toBe(problemTypes.unsupportedMediaType);
  });

  it('maps a domain error to its status, problem type and Retry-After', async () => {
    const limited = httpHandler({ route: apiRoutes.GetHealth }, async () => {
      throw new RateLimitedError('test', 42, 'Slow down.');
    });
    const result = await limited(httpApiEvent(), lambdaContext);
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['retry-after']).toBe('42');
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(parse(result.body)).toEqual({
      type: 'https://platform.example/problems/rate-limited',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Slow down.',
    });
  });

  it('turns any other error into a generic 500 with the request id and no internals', async () => {
    const failing = httpHandler({ route: apiRoutes.GetHealth }, async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    });
    const result = await failing(httpApiEvent(), lambdaContext);
    expect(result.statusCode).toBe(500);
    expect(parse(result.body).type).toBe(problemTypes.internalError);
    expect(result.body).toContain('req-123');
    expect(result.body).not.toMatch(/ECONNREFUSED|hunter2/);
  });

  it('refuses to build a handler for a route the route keys do not have', () => {
    expect(() =>
      httpHandler({ route: { ...apiRoutes.GetHealth, id: 'NoSuchRoute' } }, async () => ({ status: 200 })),
    ).toThrow('No route NoSuchRoute in lambdas/contracts/route-keys.ts');
  });

  it('takes the auth from the route: a user route without verified claims answers 401 and never runs', async () => {
    const handle = vi.fn(async () => ({ status: 200, body: {} }));
    const me = httpHandler({ route: apiRoutes.GetMe }, handle);
    const result = await me(httpApiEvent({ routeKey: 'GET /api/me' }), lambdaContext);
    expect(result.statusCode).toBe(401);
    expect(parse(result.body)).toMatchObject({ type: problemTypes.unauthorized, status: 401 });
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('httpHandler behind CloudFront (the origin secret)', () => {
  const handle = vi.fn(async () => ({ status: 201, body: { success: true } }));
  const handler = httpHandler({ route: apiRoutes.CreateWaitlistEntry }, handle);
  const withHeaders = (headers: Record<string, string | undefined>) =>
    httpApiEvent({ headers: { ...httpApiEvent().headers, ...headers } });

  it.each([
    ['without the origin secret (a direct call to the API origin)', { 'x-origin-verify': undefined }],
    ['with a guessed origin secret', { 'x-origin-verify': 'origin-secret-of-someone-else' }],
    ['with the secret plus a byte', { 'x-origin-verify': `${testOriginSecret}x` }],
  ])('answers 403 problem+json %s, and runs nothing', async (_name, headers) => {
    handle.mockClear();
    const result = await handler(withHeaders(headers), lambdaContext);
    expect(result.statusCode).toBe(403);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(parse(result.body)).toMatchObject({ type: problemTypes.originNotVerified, status: 403 });
    expect(handle).not.toHaveBeenCalled();
  });

  it('refuses before authenticating: a protected route says 403, not 401, to a direct caller', async () => {
    const me = httpHandler({ route: apiRoutes.GetMe }, handle);
    const result = await me(
      httpApiEvent({ routeKey: 'GET /api/me', headers: { 'x-origin-verify': 'nope' } }),
      lambdaContext,
    );
    expect(parse(result.body).type).toBe(problemTypes.originNotVerified);
  });

  it('accepts the previous value during a rotation, and nothing once the secret is malformed', async () => {
    secrets.on(GetSecretValueCommand).resolves({
      SecretString: JSON.stringify({ current: 'the-new-origin-secret-value', previous: testOriginSecret }),
    });
    expect((await handler(withHeaders({}), lambdaContext)).statusCode).toBe(201);
    expect(
      (await handler(withHeaders({ 'x-origin-verify': 'the-new-origin-secret-value' }), lambdaContext))
        .statusCode,
    ).toBe(201);
    clearSecretCache();
    secrets.on(GetSecretValueCommand).resolves({ SecretString: testOriginSecret });
    expect((await handler(withHeaders({}), lambdaContext)).statusCode).toBe(403);
    clearSecretCache();
    secrets
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ current: '', previous: '' }) });
    expect((await handler(withHeaders({ 'x-origin-verify': '' }), lambdaContext)).statusCode).toBe(403);
  });

  it('checks against the rotated value once the cached one expires, and refuses the old value', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await handler(withHeaders({}), lambdaContext)).statusCode).toBe(201);
      secrets
        .on(GetSecretValueCommand)
        .resolves({ SecretString: JSON.stringify({ current: 'the-rotated-origin-secret-value' }) });
      // Within the secrets cache's five minutes the container still checks against what it read.
      expect((await handler(withHeaders({}), lambdaContext)).statusCode).toBe(201);
      vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 1);
      expect((await handler(withHeaders({}), lambdaContext)).statusCode).toBe(403);
      expect(
        (await handler(withHeaders({ 'x-origin-verify': 'the-rotated-origin-secret-value' }), lambdaContext))
          .statusCode,
      ).toBe(201);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails closed when the secret cannot be read: 500, and nothing runs', async () => {
    handle.mockClear();
    clearSecretCache();
    secrets.on(GetSecretValueCommand).rejects(new Error('AccessDeniedException'));
    const result = await handler(withHeaders({}), lambdaContext);
    expect(result.statusCode).toBe(500);
    expect(handle).not.toHaveBeenCalled();
  });

  it.each([
    ['198.51.100.23', '198.51.100.23'],
    ['2001:db8:85a3::8a2e:370:7334', '2001:db8:85a3::8a2e:370:7334'],
    [' 203.0.113.5 ', '203.0.113.5'],
  ])("hands the handler the viewer's IP from the edge's x-viewer-ip %s", async (header, ip) => {
    await handler(withHeaders({ 'x-viewer-ip': header }), lambdaContext);
    expect(handle).toHaveBeenLastCalledWith(expect.objectContaining({ viewerIp: ip }));
  });

  it("falls back to API Gateway's source IP when the header is missing or not an IP, and says so in a log line and a metric", async () => {
    const warn = vi.spyOn(logger, 'warn');
    const counted = vi.spyOn(metrics, 'addMetric');
    // CloudFront's own header never reaches the API (no origin request policy names it): not trusted.
    for (const headers of [
      {},
      { 'x-viewer-ip': 'not-an-address' },
      { 'x-viewer-ip': '198.51.100.23:51234' },
      { 'cloudfront-viewer-address': '198.51.100.23:51234' },
    ]) {
      warn.mockClear();
      counted.mockClear();
      await handler(withHeaders({ 'x-viewer-ip': undefined, ...headers }), lambdaContext);
      expect(handle).toHaveBeenLastCalledWith(expect.objectContaining({ viewerIp: '127.0.0.1' }));
      expect(warn).toHaveBeenCalledWith('viewer address missing', {
        viewerAddressMissing: true,
        sourceIp: '127.0.0.1',
      });
      expect(counted).toHaveBeenCalledWith('ViewerAddressMissing', 'Count', 1);
    }
    warn.mockRestore();
    counted.mockRestore();
  });
});
