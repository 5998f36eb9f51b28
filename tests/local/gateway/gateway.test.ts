import { createServer, request, type Server } from 'node:http';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import type { EventRuleDef } from '#lambdas/event-rules.ts';
import type { HttpApiEvent } from '#lambdas/http/api-gateway.ts';
import { perIpWriteLimit, perIpWriteLimitResponse, publicWriteRoutes } from '#lambdas/http/edge.ts';
import { type RouteDef, routes } from '#lambdas/routes.ts';
import type { EventBridgeEvent } from '#local/gateway/eventbridge.ts';
import { type RunningGateway, startGateway } from '#local/gateway/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';

// The local gateway in front of fake handlers: it must authorize and shape events the way
// API Gateway does, and deliver events the way EventBridge does.

const throttle = { rateLimit: 1, burstLimit: 1 };
const testRoutes: RouteDef[] = [
  {
    id: 'Echo',
    method: 'POST',
    path: '/api/echo/{id}',
    handler: 'echo',
    auth: 'public',
    throttle,
    grants: [],
    summary: 'test',
    problems: [],
  },
  {
    id: 'Me',
    method: 'GET',
    path: '/api/me',
    handler: 'echo',
    auth: 'user',
    throttle,
    grants: [],
    summary: 'test',
    problems: [],
  },
  {
    id: 'Boom',
    method: 'GET',
    path: '/api/boom',
    handler: 'boom',
    auth: 'public',
    throttle,
    grants: [],
    summary: 'test',
    problems: [],
  },
];
const retry = { maximumRetryAttempts: 2, maximumEventAgeSeconds: 60 };
const testRules: EventRuleDef[] = [
  {
    id: 'Flaky',
    description: 'fails twice, then succeeds',
    pattern: { source: ['test.source'], 'detail-type': ['Flaky'] },
    handler: 'flaky',
    grants: [],
    retry,
  },
  {
    id: 'Broken',
    description: 'always fails',
    pattern: { source: ['test.source'], 'detail-type': ['Broken'], detail: { tier: ['gold'] } },
    handler: 'broken',
    grants: [],
    retry,
  },
];

let gateway: RunningGateway;
let jwksServer: Server;
let issuer: string;
const audience = 'https://api.test';
let signingKey: CryptoKey;
let lastEvent: HttpApiEvent | undefined;
const flakyCalls: EventBridgeEvent[] = [];
let brokenCalls = 0;

beforeAll(async () => {
  const keys = await generateKeyPair('RS256');
  signingKey = keys.privateKey;
  const publicJwk: JWK = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const jwksPort = await freePort();
  issuer = `http://localhost:${jwksPort}/`;
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(jwksPort, '127.0.0.1', resolve));

  const handlers: Record<string, unknown> = {
    echo: async (event: HttpApiEvent) => {
      lastEvent = event;
      return {
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        // Not ASCII: the answer's length is counted in bytes, not characters.
        body: JSON.stringify({ ok: true, greeting: 'grüße, 世界' }),
      };
    },
    boom: async () => {
      throw new Error('secret internals');
    },
    flaky: async (event: EventBridgeEvent) => {
      flakyCalls.push(event);
      if (flakyCalls.length < 3) throw new Error('transient');
    },
    broken: async () => {
      brokenCalls++;
      throw new Error('always broken');
    },
  };
  gateway = await startGateway({
    port: await freePort(),
    authorizer: { issuer, audience, jwksUri: `${issuer}jwks.json` },
    routes: testRoutes,
    eventRules: testRules,
    busName: 'test-bus',
    region: 'eu-central-1',
    loadHandler: async (name) => handlers[name],
    eventRetryDelayMs: () => 5,
    controls: {
      'thing/stop': async () => {
        controlCalls.push('stop');
        return { thing: 'stopped' };
      },
      'thing/fail': async () => {
        throw new Error('could not');
      },
    },
  });
});

const controlCalls: string[] = [];

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

async function token(
  claims: Record<string, unknown> = {},
  options: { key?: CryptoKey; iss?: string; aud?: string; exp?: number } = {},
) {
  return new SignJWT({ scope: 'openid profile', 'https://ns/role': 'user', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('auth0|abc')
    .setIssuer(options.iss ?? issuer)
    .setAudience(options.aud ?? audience)
    .setIssuedAt()
    .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 300)
    .sign(options.key ?? signingKey);
}

const me = (authorization?: string) =>
  fetch(`${gateway.url}/api/me`, { headers: authorization ? { authorization } : {} });

describe('HTTP API routes', () => {
  it('builds a payload 2.0 event with lower-cased headers, path parameters and the raw body', async () => {
    const response = await fetch(`${gateway.url}/api/echo/a%20b?x=1&x=2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'Yes', cookie: 'a=1; b=2' },
      body: '{"n": 1.50}',
    });
    expect(response.status).toBe(200);
    expect(lastEvent).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/echo/{id}',
      rawPath: '/api/echo/a%20b',
      rawQueryString: 'x=1&x=2',
      pathParameters: { id: 'a b' },
      queryStringParameters: { x: '1,2' },
      cookies: ['a=1', 'b=2'],
      body: '{"n": 1.50}',
      isBase64Encoded: false,
    });
    expect(lastEvent?.headers['x-custom']).toBe('Yes');
    expect(lastEvent?.requestContext.authorizer).toBeUndefined();
  });

  it('joins a repeated header with commas and gathers every cookie header, as API Gateway does', async () => {
    const url = new URL(`${gateway.url}/api/echo/1`);
    // fetch merges repeated headers itself: node:http sends each line as given.
    const answer = await new Promise<{ status?: number; length?: string; body: Buffer }>(
      (resolve, reject) => {
        const sent = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              'X-Repeated': ['one', 'two'],
              Cookie: ['a=1; b=2', 'c=3'],
              'content-type': 'application/json',
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode,
                length: res.headers['content-length'],
                body: Buffer.concat(chunks),
              }),
            );
          },
        );
        sent.on('error', reject);
        sent.end('{}');
      },
    );
    expect(answer.status).toBe(200);
    expect(lastEvent?.headers['x-repeated']).toBe('one,two');
    expect(lastEvent?.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(lastEvent?.headers.cookie).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ ok: true, greeting: 'grüße, 世界' });
    expect(Number(answer.length)).toBe(answer.body.byteLength);
  });

  it('base64-encodes a binary body', async () => {
    await fetch(`${gateway.url}/api/echo/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([0, 255, 1]),
    });
    expect(lastEvent?.isBase64Encoded).toBe(true);
    expect(Buffer.from(lastEvent?.body ?? '', 'base64')).toEqual(Buffer.from([0, 255, 1]));
  });

  it("reports the connection's peer as sourceIp, never a client's X-Forwarded-For", async () => {
    await fetch(`${gateway.url}/api/echo/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: '{}',
    });
    expect(lastEvent?.requestContext.http.sourceIp).toBe('127.0.0.1');
  });

  it('answers an unknown route and a crashing handler like API Gateway, without internals', async () => {
    const missing = await fetch(`${gateway.url}/api/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not Found' });
    const boom = await fetch(`${gateway.url}/api/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toContain('secret internals');
  });

  it('answers a path parameter that is not valid percent-encoding 400, and keeps serving', async () => {
    for (const segment of ['%E0%A4%A', '%', 'a%zz']) {
      const malformed = await fetch(`${gateway.url}/api/echo/${segment}`, { method: 'POST' });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({ message: 'Bad Request' });
    }
    expect((await fetch(`${gateway.url}/api/echo/1`, { method: 'POST' })).status).toBe(200);
  });

  it("serves the bench's two references: the bare answer, and an empty Lambda behind the emulation", async () => {
    const bare = await fetch(`${gateway.url}/__local/noop`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get('apigw-requestid')).toBeNull();
    // Through the route emulation: API Gateway's request id header, a mapped Lambda result.
    const route = await fetch(`${gateway.url}/__local/noop-route`);
    expect(route.status).toBe(200);
    expect(route.headers.get('apigw-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await route.json()).toEqual({});
    expect((await fetch(`${gateway.url}/__local/noop-route`, { method: 'POST' })).status).toBe(404);
  });
});

describe('JWT authorizer on user routes', () => {
  it('passes a valid token and hands claims to the handler as strings', async () => {
    const response = await me(`Bearer ${await token()}`);
    expect(response.status).toBe(200);
    const authorizer = lastEvent?.requestContext.authorizer?.jwt;
    expect(authorizer?.claims.sub).toBe('auth0|abc');
    expect(authorizer?.claims['https://ns/role']).toBe('user');
    expect(typeof authorizer?.claims.exp).toBe('string');
    expect(authorizer?.scopes).toEqual(['openid', 'profile']);
  });

  it('rejects a request without a token', async () => {
    expect((await me()).status).toBe(401);
  });

  it('rejects a token signed by another key', async () => {
    const other = await generateKeyPair('RS256');
    const response = await me(`Bearer ${await token({}, { key: other.privateKey })}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('rejects a wrong issuer, also the issuer without its trailing slash', async () => {
    expect((await me(`Bearer ${await token({}, { iss: 'http://evil.example/' })}`)).status).toBe(401);
    expect((await me(`Bearer ${await token({}, { iss: issuer.replace(/\/$/, '') })}`)).status).toBe(401);
  });

  it('rejects a wrong audience and an expired token', async () => {
    expect((await me(`Bearer ${await token({}, { aud: 'https://other.api' })}`)).status).toBe(401);
    const longAgo = Math.floor(Date.now() / 1000) - 120;
    expect((await me(`Bearer ${await token({}, { exp: longAgo })}`)).status).toBe(401);
  });

  it('rejects an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        sub: 'auth0|abc',
        iss: issuer,
        aud: audience,
        exp: Math.floor(Date.now() / 1000) + 300,
      }),
    ).toString('base64url');
    expect((await me(`Bearer ${header}.${payload}.`)).status).toBe(401);
  });
});

describe('EventBridge endpoint', () => {
  const client = () =>
    new EventBridgeClient({
      endpoint: gateway.eventBridgeEndpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

  it('accepts PutEvents from the real SDK and retries a failing target until it succeeds', async () => {
    const answer = await client().send(
      new PutEventsCommand({
        Entries: [
          { EventBusName: 'test-bus', Source: 'test.source', DetailType: 'Flaky', Detail: '{"n":1}' },
        ],
      }),
    );
    expect(answer.FailedEntryCount).toBe(0);
    expect(answer.Entries?.[0]?.EventId).toBeTruthy();
    await gateway.eventsSettled();
    expect(flakyCalls).toHaveLength(3);
    expect(flakyCalls[0]).toMatchObject({ source: 'test.source', 'detail-type': 'Flaky', detail: { n: 1 } });
    expect(new Set(flakyCalls.map((event) => event.id)).size).toBe(1);
  });

  it('dead-letters an event whose target keeps failing, after the rule retries', async () => {
    await client().send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: 'test-bus',
            Source: 'test.source',
            DetailType: 'Broken',
            Detail: '{"tier":"silver"}',
          },
          {
            EventBusName: 'test-bus',
            Source: 'test.source',
            DetailType: 'Broken',
            Detail: '{"tier":"gold"}',
          },
        ],
      }),
    );
    await gateway.eventsSettled();
    expect(brokenCalls).toBe(3); // only the gold event matches; 1 try + 2 retries
    const letters = gateway.deadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      ruleId: 'Broken',
      attempts: 3,
      error: 'always broken',
      event: { detail: { tier: 'gold' } },
    });
  });

  it('reports malformed entries per entry and rejects an unknown bus', async () => {
    const answer = await client().send(
      new PutEventsCommand({
        Entries: [
          { EventBusName: 'test-bus', Source: 'test.source', DetailType: 'Nothing', Detail: 'not json' },
          { EventBusName: 'test-bus', Source: 'test.source', DetailType: 'Nothing', Detail: '{}' },
        ],
      }),
    );
    expect(answer.FailedEntryCount).toBe(1);
    expect(answer.Entries?.[0]?.ErrorCode).toBe('MalformedDetail');
    await expect(
      client().send(
        new PutEventsCommand({
          Entries: [{ EventBusName: 'nope', Source: 's', DetailType: 'd', Detail: '{}' }],
        }),
      ),
    ).rejects.toThrow(/does not exist/);
  });
});

describe("WAF's per-IP rule on the public write routes", () => {
  const originSecret = 'origin-secret-of-the-gateway-test';
  let limited: RunningGateway;
  const handled: string[] = [];
  beforeAll(async () => {
    limited = await startGateway({
      port: await freePort(),
      authorizer: { issuer, audience, jwksUri: `${issuer}jwks.json` },
      routes,
      eventRules: [],
      busName: 'test-bus',
      region: 'eu-central-1',
      originSecret,
      loadHandler: async () => async (event: HttpApiEvent) => {
        handled.push(event.routeKey);
        return { statusCode: 201, body: '{}' };
      },
    });
  });
  afterAll(() => limited?.close());

  /** Through the local CloudFront stand-in: the origin secret and the viewer's address. */
  const post = (path: string, viewer: string, headers: Record<string, string> = {}) =>
    fetch(`${limited.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-origin-verify': originSecret,
        'x-viewer-ip': viewer,
        ...headers,
      },
      body: '{}',
    });

  it('covers exactly the public POST routes of routes.ts (not the signed webhook)', () => {
    expect(publicWriteRoutes(routes).map((route) => route.path)).toEqual([
      '/api/registrations',
      '/api/waitlist',
      '/api/investor-inquiries',
      '/api/contact',
      '/api/data-deletion-requests',
      // Anyone may try a confirmation token: limited like the other public writes.
      '/api/data-deletion-requests/confirm',
      '/api/cookie-consents',
    ]);
  });

  it('answers 429 with Retry-After past the limit, per viewer, across every write route', async () => {
    const writes = publicWriteRoutes(routes).map((route) => route.path);
    const statuses: number[] = [];
    for (let i = 0; i < perIpWriteLimit.limit; i++) {
      statuses.push((await post(writes[i % writes.length] ?? '', '203.0.113.10')).status);
    }
    expect(statuses.every((status) => status === 201)).toBe(true);
    const before = handled.length;
    const over = await post('/api/registrations', '203.0.113.10');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe(String(perIpWriteLimitResponse.retryAfterSeconds));
    expect(await over.json()).toMatchObject({ type: problemTypes.rateLimited, status: 429 });
    expect(handled.length).toBe(before);
    // Another viewer, a read and the signed webhook are not counted against this one.
    expect((await post('/api/waitlist', '2001:db8::10')).status).toBe(201);
    expect((await fetch(`${limited.url}/api/health`)).status).toBe(201);
    expect((await post('/api/webhooks/persona', '203.0.113.10')).status).toBe(201);
  });

  it('counts the spellings of a public path WAF counts: trailing slash, case, percent-encoding (ADR 0072)', async () => {
    const variants = ['/api/registrations/', '/API/Registrations', '/api/%72egistrations', '/api/Waitlist/'];
    const statuses: number[] = [];
    for (let i = 0; i < perIpWriteLimit.limit; i++) {
      statuses.push((await post(variants[i % variants.length] ?? '', '203.0.113.30')).status);
    }
    // The gateway routes none of them, but each one was counted.
    expect(statuses.every((status) => status === 404)).toBe(true);
    const before = handled.length;
    const over = await post('/api/registrations', '203.0.113.30');
    expect(over.status).toBe(429);
    expect(await post('/api/%72egistrations', '203.0.113.30').then((r) => r.status)).toBe(429);
    expect(handled.length).toBe(before);
    // A path the rule does not cover is not counted, nor refused.
    expect((await post('/api/registrationsx', '203.0.113.31')).status).toBe(404);
  });

  it('counts a direct caller by its connection, whatever viewer address it forges', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= perIpWriteLimit.limit; i++) {
      statuses.push(
        (
          await post('/api/contact', `198.51.100.${i}`, {
            'x-origin-verify': 'origin-secret-guessed-wrongly',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("the stack's local controls", () => {
  it('runs a control on POST only, answers what it returns or its failure, and nothing else', async () => {
    const post = (name: string) => fetch(`${gateway.url}/__local/${name}`, { method: 'POST' });
    expect((await fetch(`${gateway.url}/__local/thing/stop`)).status).toBe(404);
    expect(controlCalls).toEqual([]);
    const stopped = await post('thing/stop');
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ thing: 'stopped' });
    expect(controlCalls).toEqual(['stop']);
    const failed = await post('thing/fail');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ message: 'Error: could not' });
    // Only the stack's own names: not whatever an object inherits.
    expect((await post('toString')).status).toBe(404);
    expect((await post('thing')).status).toBe(404);
  });
});
