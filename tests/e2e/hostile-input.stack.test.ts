import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as z from 'zod/mini';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { maxBodyBytesOf } from '#contracts/route.ts';
import { type RouteDef, routes } from '#lambdas/routes.ts';
import { tables } from '#lambdas/tables.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { createTestUser, mailbox, type TestUser } from '#tests/helpers/tokens.ts';

// Whatever an attacker sends to any route, through the edge as through CloudFront: random and
// contract-shaped JSON with wrong types, huge strings, unicode, prototype keys at any depth,
// duplicate keys, wrong content types, empty and oversized bodies, invalid UTF-8, hostile
// Authorization headers and traversal in path parameters. The answer is always a 2xx, or a 4xx
// problem+json (or one of API Gateway's own documented `{"message"}` refusals, ADR 0021); never a
// 5xx; a refusal writes nothing (the three tables, the mailbox, the identity provider's users and
// tickets); and no answer names our internals. Routes come from routes.ts and bodies from the
// contracts, so a new route is covered without touching this file (ADR 0037).

const stack = inject('stack');
const stateDir = inject('stackStateDir');
const db = stackDb(stack);
const soak = Boolean(process.env.SOAK);
/** Generated requests per route: `npm test` keeps the suite near a minute; SOAK=1 goes deeper. */
const runs = soak ? 300 : 25;

const routePath = (route: RouteDef, params: Record<string, string> = {}) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'auth0|nobody');

// ---------------------------------------------------------------------------------------------
// What counts as written: every item of every table, the mailbox, the identity provider's users
// and tickets. A digest, so an update in place counts as much as a new item.

async function scanAll(tableName: string): Promise<string[]> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) items.push(JSON.stringify(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort();
}

const readOrEmpty = (file: string) => readFile(file, 'utf8').catch(() => '');

interface Snapshot {
  digest: string;
  summary: Record<string, number>;
}

async function snapshot(): Promise<Snapshot> {
  // Deliveries of events from earlier accepted requests may still be writing: wait for them first.
  await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  const hash = createHash('sha256');
  const summary: Record<string, number> = {};
  for (const table of Object.values(tables)) {
    const items = await scanAll(db.tableName(table.logicalName));
    summary[table.logicalName] = items.length;
    hash.update(items.join('\n'));
  }
  const mails = await mailbox(stack);
  summary.emails = mails.length;
  hash.update(mails.map((mail) => mail.messageId).join(','));
  for (const file of ['users.json', 'tickets.json'])
    hash.update(await readOrEmpty(join(stateDir, 'idp', file)));
  return { digest: hash.digest('hex'), summary };
}

// ---------------------------------------------------------------------------------------------
// What an answer may say.

const tableNames = Object.values(stack.dynamodb.tables);
const envNames = Object.values(tables).map((table) => table.envVar);
/** Stack frames, source paths, AWS and runtime error names, our tables and environment. */
const leaks: RegExp[] = [
  /\bat [\w$.<>[\] ]+ \(/,
  /\n\s+at /,
  /(?:file:\/\/|\/lambdas\/|\/local\/|node_modules|\/work\/|\/home\/|\/tmp\/)/,
  /\.[cm]?[jt]s:\d+/,
  /\b(?:[A-Z][a-z]+)+Error\b/,
  /\b\w*(?:Exception|DynamoDB|ConditionalCheck|ValidationException|TransactionCanceled|ResourceNotFound)\w*\b/,
  /\$metadata|@aws-sdk|aws-sdk|smithy|undici|ECONNREFUSED|ETIMEDOUT/i,
  /\b(?:Unexpected token|JSON\.parse|Cannot read properties|undefined is not|process\.env)\b/,
  /\bAUTH0_|\bPERSONA_|\bPOWERTOOLS_|\bSES_|\bEVENT_BUS|\bCLAIMS_NAMESPACE|\bAPP_URL|\bOPERATIONS_EMAIL/,
];

/** Every string a person reads in the answer (field names echo the request's own keys: skipped). */
function readableStrings(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [text];
  }
  const strings: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === 'string') {
      if (key !== 'field') strings.push(value);
    } else if (Array.isArray(value)) for (const entry of value) walk(entry);
    else if (value !== null && typeof value === 'object')
      for (const [name, entry] of Object.entries(value)) walk(entry, name);
  };
  walk(json);
  return strings;
}

function leaksIn(text: string): string[] {
  const found: string[] = [];
  for (const value of readableStrings(text)) {
    for (const pattern of leaks) if (pattern.test(value)) found.push(`${pattern} in ${value.slice(0, 200)}`);
    for (const name of [...tableNames, ...envNames])
      if (value.includes(name)) found.push(`${name} in ${value}`);
  }
  return found;
}

const knownProblemTypes = new Set<string>(Object.values(problemTypes));
/** API Gateway's own refusals, which HTTP APIs cannot make problems of (ADR 0021). */
const gatewayAnswers = new Map([
  [400, '{"message":"Bad Request"}'],
  [401, '{"message":"Unauthorized"}'],
  [404, '{"message":"Not Found"}'],
]);

interface Answer {
  status: number;
  text: string;
  problemType?: string;
  fields: string[];
}

/** Asserts what any answer must be, and returns it for the caller's own expectations. */
async function checkAnswer(response: Response, what: string): Promise<Answer> {
  const text = await response.text();
  const { status } = response;
  const context = `${what} -> ${status} ${text.slice(0, 400)}`;
  expect(status, context).toBeGreaterThanOrEqual(200);
  expect(status, context).toBeLessThan(500);
  expect(leaksIn(text), context).toEqual([]);
  for (const [name, value] of response.headers)
    expect(leaksIn(value), `${context} header ${name}`).toEqual([]);
  if (status < 400) return { status, text, fields: [] };
  if (response.headers.get('content-type') !== problemContentType) {
    expect(gatewayAnswers.get(status), context).toBe(text);
    return { status, text, fields: [] };
  }
  const problem = JSON.parse(text) as {
    type: string;
    status: number;
    title: string;
    errors?: { field: string }[];
  };
  expect(problem.status, context).toBe(status);
  expect(knownProblemTypes.has(problem.type), context).toBe(true);
  expect(typeof problem.title, context).toBe('string');
  return {
    status,
    text,
    problemType: problem.type,
    fields: (problem.errors ?? []).map((error) => error.field),
  };
}

// ---------------------------------------------------------------------------------------------
// Requests.

interface Hostile {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Straight to the API origin instead of through the edge. */
  direct?: boolean;
}

const stats = { requests: 0, refused: 0, accepted: 0, direct: 0, snapshots: 0 };
let last: Snapshot | undefined;

/**
 * Sends one request and checks its answer; on a refusal, checks nothing was written since the
 * previous snapshot (taken again only after an accepted request, which may legitimately write).
 */
async function send(request: Hostile, what = `${request.method} ${request.path}`): Promise<Answer> {
  if (!last) {
    last = await snapshot();
    stats.snapshots++;
  }
  const base = request.direct ? stack.api : stack.web;
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body !== undefined && request.method !== 'GET' ? { body: request.body as BodyInit } : {}),
  });
  stats.requests++;
  if (request.direct) stats.direct++;
  const answer = await checkAnswer(response, what);
  const after = await snapshot();
  stats.snapshots++;
  if (answer.status >= 400) {
    stats.refused++;
    expect(after.summary, `${what} -> ${answer.status} wrote something`).toEqual(last.summary);
    expect(after.digest, `${what} -> ${answer.status} changed a stored item`).toBe(last.digest);
  } else stats.accepted++;
  last = after;
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Bodies from the contracts: valid-ish values per field, then made hostile.

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

const prototypeKeys = ['__proto__', 'constructor', 'prototype'];
const hostileStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '../../../etc/passwd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  `$${'{'}jndi:ldap://x}`,
  '{{7*7}}',
  '\u202eevil\u202d',
  '\ud83d\ude00'.repeat(40),
  '\ud800',
  'Ω≈ç√∫˜µ≤≥÷',
  'a@b',
  'x'.repeat(5001),
  'ü'.repeat(20_000),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  fc.constantFrom(null, 0, -1, 1e308, -0, true, false, [], {}, [null], { $ne: null }, { $gt: '' }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((entry) => fromSchema(entry, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return fc.constantFrom('ada@quantum-bio.example', 'x@test-org.example');
      if (schema.format === 'uuid') return fc.uuid({ version: 4 });
      if (schema.format === 'uri')
        return fc.constantFrom('https://quantum-bio.example', 'https://example.org/a');
      if (schema.format === 'date-time') return fc.constant(new Date().toISOString());
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40)),
      });
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.integer();
    case 'array':
      return fc.array(schema.items && depth < 4 ? fromSchema(schema.items, depth + 1) : fc.jsonValue(), {
        maxLength: 3,
      });
    case 'object': {
      if (!schema.properties || depth >= 4) return fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 });
      const properties = Object.entries(schema.properties).map(
        ([key, value]) => [key, fromSchema(value, depth + 1)] as const,
      );
      return fc.record(Object.fromEntries(properties), { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function requestSchema(route: RouteDef): JsonSchema | undefined {
  const contract = route.body;
  return contract
    ? (z.toJSONSchema(contract, { unrepresentable: 'any', io: 'input' }) as JsonSchema)
    : undefined;
}

/** Sets `key` to `value` at a random depth of an object (creating the path as it goes). */
function setDeep(target: unknown, path: string[], key: string, value: unknown): unknown {
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return target;
  const copy: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  const [head, ...rest] = path;
  if (head !== undefined && copy[head] !== null && typeof copy[head] === 'object')
    copy[head] = setDeep(copy[head], rest, key, value);
  // defineProperty, so `__proto__` becomes a key of the JSON rather than the object's prototype.
  else Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const text = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** A body: valid-ish from the contract, then one hostile change; or something else entirely. */
function bodies(route: RouteDef): fc.Arbitrary<string | Uint8Array> {
  const schema = requestSchema(route);
  const valid = schema ? fromSchema(schema) : fc.constant({});
  const fieldNames = Object.keys(schema?.properties ?? { email: {} });
  const pollution = fc.record({
    key: fc.constantFrom(...prototypeKeys),
    path: fc.array(fc.constantFrom(...fieldNames, 'data', 'attributes'), { maxLength: 3 }),
    value: fc.oneof(
      fc.constant({
        polluted: true,
        isAdmin: true,
        role: 'admin',
        [`${stack.idp.claimsNamespace}role`]: 'admin',
      }),
      fc.constant({ prototype: { polluted: true } }),
      hostileValue,
    ),
  });
  const asText = fc.oneof(
    // The contract's fields with plausible values: some are accepted (and may write), some refused
    // by the use case after the schema (which must then have written nothing).
    { weight: 4, arbitrary: valid.map(text) },
    // One field of the wrong type, too long, unicode, NUL, injection-shaped...
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...fieldNames), hostileValue)
        .map(([body, key, value]) => text({ ...(body as object), [key]: value })),
    },
    // Prototype keys at any depth.
    fc.tuple(valid, pollution).map(([body, p]) => text(setDeep(body, p.path, p.key, p.value))),
    // Duplicate keys: JSON.parse keeps the last one.
    fc
      .tuple(valid, fc.constantFrom(...fieldNames, ...prototypeKeys), hostileValue)
      .map(([body, key, value]) => {
        const json = text(body);
        const extra = `${JSON.stringify(key)}:${text(value)}`;
        return json.startsWith('{') && json !== '{}'
          ? `{${extra},${json.slice(1, -1)},${extra}}`
          : `{${extra},${extra}}`;
      }),
    // Unknown keys beside the real ones.
    fc
      .tuple(valid, fc.dictionary(fc.string({ minLength: 1, maxLength: 30 }), fc.jsonValue(), { minKeys: 1 }))
      .map(([body, extra]) => text({ ...extra, ...(body as object) })),
    // Not an object, or not JSON at all.
    fc.jsonValue().map(text),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '\ufeff{}', '{"a":1}garbage', '{}'.repeat(1000)),
  );
  return fc.oneof(
    { weight: 6, arbitrary: asText },
    // Bytes that are not UTF-8 at all, inside and outside JSON strings.
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) =>
          Buffer.concat([
            Buffer.from('{"email":"'),
            Buffer.from([0xff, 0xfe, 0xc3]),
            bytes,
            Buffer.from('"}'),
          ]),
        ),
    },
  );
}

const contentTypes = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/JSON',
      'application/merge-patch+json',
      'application/xml',
      'application/json, text/html',
      '*/*',
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Callers: no token, real tokens, hostile Authorization headers.

let user: TestUser;
let admin: TestUser;
const authorization: Record<string, string> = {};

async function hostileAuthorizations(): Promise<Record<string, string>> {
  const jwks = JSON.parse(await readFile(join(stateDir, 'idp', 'jwks.json'), 'utf8')) as { keys: JWK[] };
  const jwk = jwks.keys[0];
  if (!jwk?.kid) throw new Error('the identity provider has no signing key');
  const realKey = await importJWK(jwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  const claims = (overrides: JWTPayload = {}): JWTPayload => ({
    iss: stack.idp.issuer,
    aud: stack.idp.audience,
    sub: user.userId,
    iat: now,
    exp: now + 3600,
    [`${stack.idp.claimsNamespace}role`]: 'user',
    [`${stack.idp.claimsNamespace}email_verified`]: true,
    ...overrides,
  });
  const header = { alg: 'RS256', kid: jwk.kid, typ: 'JWT' };
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // The classic confusion: the issuer's public key, as PEM, used as an HMAC secret.
  const publicPem = Buffer.from(
    createPublicKey({
      key: { kty: jwk.kty, n: jwk.n, e: jwk.e } as Record<string, string>,
      format: 'jwk',
    }).export({
      type: 'spki',
      format: 'pem',
    }),
  );
  // A signed payload whose JSON has an own `__proto__` claim carrying the admin role.
  // No own role claim (as a token minted before the Action added it), so only the prototype could
  // supply one.
  const { [`${stack.idp.claimsNamespace}role`]: _role, ...withoutRole } = claims();
  const protoPayload = `{"__proto__":{"${stack.idp.claimsNamespace}role":"admin","role":"admin"},${JSON.stringify(withoutRole).slice(1)}`;
  const protoToken = await (async () => {
    const signingInput = `${b64(header)}.${Buffer.from(protoPayload).toString('base64url')}`;
    const signature = await crypto.subtle.sign(
      'RSASSA-PKCS1-v1_5',
      realKey as CryptoKey,
      Buffer.from(signingInput),
    );
    return `${signingInput}.${Buffer.from(signature).toString('base64url')}`;
  })();
  const sign = (payload: JWTPayload, key: Parameters<SignJWT['sign']>[0] = realKey as CryptoKey) =>
    new SignJWT(payload).setProtectedHeader(header).sign(key);
  return {
    garbage: 'garbage',
    bearerAlone: 'Bearer',
    bearerSpace: 'Bearer ',
    basic: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    // Big, yet with the longest path under Node's 16 KiB of headers (CloudFront allows 20 KB).
    huge: `Bearer ${'A'.repeat(6 * 1024)}`,
    twoTokens: `Bearer ${user.token}, Bearer ${admin.token}`,
    tokenWithoutScheme: admin.token,
    tamperedSignature: `${admin.token.slice(0, -4)}AAAA`,
    userTokenAdminPayload: `${admin.token.split('.')[0]}.${user.token.split('.')[1]}.${admin.token.split('.')[2]}`,
    algNone: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims({ [`${stack.idp.claimsNamespace}role`]: 'admin' }))}.`,
    hs256WithPublicKey: `Bearer ${await new SignJWT(claims({ [`${stack.idp.claimsNamespace}role`]: 'admin' }))
      .setProtectedHeader({ alg: 'HS256', kid: jwk.kid, typ: 'JWT' })
      .sign(publicPem)}`,
    otherIssuer: `Bearer ${await new SignJWT(claims({ iss: 'https://evil.example/' }))
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
      .sign(other.privateKey)}`,
    expired: `Bearer ${await sign(claims({ iat: now - 7200, exp: now - 3600 }))}`,
    protoClaim: `Bearer ${protoToken}`,
    unicode: 'Bearer \u00ff\u00fe\u00e9\u00e8',
    injection: "Bearer ' OR 1=1 --",
  };
}

/** The callers whose tokens the identity provider's key really signed. */
const signedIn = ['user', 'admin', 'protoClaim'];

/** Half the time the caller the route is for (so the body is read), else anyone, forged or not. */
const callerArbitrary = (route: RouteDef) =>
  fc.oneof(fc.constant(ownCaller(route)), fc.constantFrom('none', ...Object.keys(authorization)));

// ---------------------------------------------------------------------------------------------

const liveRoutes = routes;
const bodyRoutes = liveRoutes.filter((route) => route.method !== 'GET');
const pathParamValues = fc.oneof(
  fc.constantFrom(
    '..%2F..%2Fme',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2E%2E%2F%2E%2E',
    '%00',
    'auth0%7Cx%00y',
    '%252e%252e%252f',
    '..%5C..%5Cwindows',
    encodeURIComponent('ü𝔘\u202eevil'),
    encodeURIComponent('__proto__'),
    encodeURIComponent('constructor'),
    'x'.repeat(3000),
    encodeURIComponent('𝔘'.repeat(300)),
    '%E0%A4%A',
    '%',
  ),
  // "." and ".." stay as they are under encodeURIComponent, and a URL parser removes such a segment
  // before sending: the request would name another path, not this route with a hostile value.
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 80 })
    .map(encodeURIComponent)
    .filter((segment) => segment !== '.' && segment !== '..'),
);

/** Query strings: none, random, prototype keys, repeated and unknown parameters, bad values. */
const queries = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(
        fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...prototypeKeys, 'status')),
        fc.string({ maxLength: 30 }),
        {
          maxKeys: 4,
        },
      )
      .map((query) => `?${new URLSearchParams(query)}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '?status=all&status=pending',
      '?status=__proto__',
      '?__proto__[status]=all',
      '?constructor[prototype][polluted]=1',
      `?status=${'x'.repeat(4000)}`,
      '?%E0%A4%A=1',
      '?status=%00',
    ),
  },
);

/** The caller a route needs for its body to be looked at (otherwise every body is just a 401). */
const ownCaller = (route: RouteDef) =>
  route.auth === 'admin' ? 'admin' : route.auth === 'user' ? 'user' : 'none';

beforeAll(async () => {
  user = await createTestUser(stack);
  admin = await createTestUser(stack, {
    role: 'admin',
    organization_type: 'commercial',
    kyc_status: 'not_started',
  });
  Object.assign(authorization, { user: `Bearer ${user.token}`, admin: `Bearer ${admin.token}` });
  Object.assign(authorization, await hostileAuthorizations());
  controlBefore = await controlAnswers();
});

afterAll(() => {
  // The figures docs/reliability.md quotes.
  console.info(`hostile input: ${JSON.stringify(stats)}`);
});

let controlBefore: Awaited<ReturnType<typeof controlAnswers>>;

const headersFor = (caller: string, contentType?: string): Record<string, string> => ({
  ...(authorization[caller] !== undefined ? { authorization: authorization[caller] } : {}),
  ...(contentType ? { 'content-type': contentType } : {}),
});

/** The answers that show nobody could be let in: anything but a 2xx. */
async function controlAnswers() {
  const adminRoute = routes.find((route) => route.auth === 'admin' && route.method === 'GET');
  const waitlist = routes.find((route) => route.id === 'CreateWaitlistEntry');
  if (!adminRoute || !waitlist) throw new Error('routes.ts lost the routes the control requests use');
  const asUser = await fetch(`${stack.web}${adminRoute.path}`, { headers: headersFor('user') });
  const invalid = await fetch(`${stack.web}${waitlist.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"polluted":true,"isAdmin":true}',
  });
  return [
    { status: asUser.status, body: await asUser.json() },
    { status: invalid.status, body: await invalid.json() },
  ];
}

describe('every route under hostile input, through the edge', () => {
  it.each(liveRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: any caller, body and content type -> 2xx or a 4xx problem, nothing written on 4xx, no internals',
    async (name, route) => {
      await fc.assert(
        fc.asyncProperty(
          callerArbitrary(route),
          bodies(route),
          contentTypes,
          pathParamValues,
          queries,
          async (caller, body, contentType, userId, query) => {
            const answer = await send(
              {
                method: route.method,
                path: `${routePath(route, { userId })}${query}`,
                headers: headersFor(caller, contentType),
                body,
              },
              `${name}${query.slice(0, 60)} as ${caller} (${contentType}) ${typeof body === 'string' ? body.slice(0, 120) : '<bytes>'}`,
            );
            // API Gateway refuses a path it cannot decode before anything else.
            if (answer.text === gatewayAnswers.get(400)) return;
            // A forged or absent token never reaches a protected route's handler; a user's token
            // (the one with a signed `__proto__` claim naming the admin role too) is no admin's.
            if (route.auth === 'user' || route.auth === 'admin')
              if (!signedIn.includes(caller)) expect(answer.status).toBe(401);
            if (route.auth === 'admin' && caller !== 'admin' && signedIn.includes(caller))
              expect(answer.status).toBe(403);
            // The public reads answer whatever the query string and headers.
            if (route.auth === 'public' && route.method === 'GET') expect(answer.status).toBe(200);
          },
        ),
        { numRuns: runs },
      );
    },
  );
});

describe.each(
  bodyRoutes
    .filter((route) => requestSchema(route))
    .map((route) => [`${route.method} ${route.path}`, route] as const),
)('%s: the body as the wrapper reads it', (name, route) => {
  const caller = ownCaller(route);
  const request = (body: string | Uint8Array, contentType = 'application/json') =>
    send(
      { method: route.method, path: routePath(route), headers: headersFor(caller, contentType), body },
      `${name}: ${typeof body === 'string' ? body.slice(0, 80) : '<bytes>'} (${contentType})`,
    );
  // The Persona webhook checks its signature before it reads the body: 401 for all of these.
  const refusal = (status: number) => (route.auth === 'persona-signature' ? 401 : status);

  it('refuses prototype keys, at the top and nested, as unknown fields', async () => {
    for (const key of prototypeKeys) {
      const answer = await request(`{${JSON.stringify(key)}:{"polluted":true,"role":"admin"}}`);
      expect(answer.status).toBe(refusal(400));
      if (route.auth !== 'persona-signature') expect(answer.fields).toContain(key);
    }
  });

  it('refuses wrong content types (415), an empty body (400) and invalid UTF-8 (400)', async () => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ])
      expect((await request('{}', contentType)).status).toBe(refusal(415));
    expect((await request(Buffer.from('{}', 'utf16le'), 'application/json; charset=utf-16')).status).toBe(
      refusal(400),
    );
    expect((await request('')).status).toBe(refusal(400));
    expect((await request(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x7d]))).status).toBe(
      refusal(400),
    );
    expect((await request('{"email":"a@b.c","email":"x"}')).status).toBe(refusal(400));
  });
});

describe.each(bodyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s: the body-size limit',
  (name, route) => {
    it('reads a body of exactly its limit, and refuses one byte more with 413', async () => {
      const limit = maxBodyBytesOf(route);
      const padded = (size: number) => `{"padding":"${'x'.repeat(size - 14)}"}`;
      expect(Buffer.byteLength(padded(limit))).toBe(limit);
      const request = (body: string) =>
        send(
          {
            method: route.method,
            path: routePath(route),
            headers: headersFor(ownCaller(route), 'application/json'),
            body,
          },
          `${name}: ${body.length} bytes`,
        );
      expect((await request(padded(limit))).status).not.toBe(413);
      expect((await request(padded(limit + 1))).status).toBe(413);
    });
  },
);

describe('path parameters', () => {
  const decide = routes.find((route) => route.path.includes('{userId}'));

  it.each([
    '..%2F..%2Fme',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%00',
    encodeURIComponent('ü𝔘\u202e'),
    encodeURIComponent('__proto__'),
    'x'.repeat(3000),
    encodeURIComponent('𝔘'.repeat(300)),
    '%E0%A4%A',
  ])('an admin deciding on user id %s gets a 4xx problem and nothing changes', async (userId) => {
    if (!decide) throw new Error('routes.ts has no route with a {userId} parameter');
    const answer = await send({
      method: decide.method,
      path: routePath(decide, { userId }),
      headers: headersFor('admin', 'application/json'),
      body: JSON.stringify({
        decision: 'approved',
        reasonCode: 'identity_confirmed',
        reason: 'hostile input test',
      }),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });
});

describe('calls that skip the edge', () => {
  it.each(liveRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s straight to the API origin: 403 problem, nothing written',
    async (name, route) => {
      const answer = await send(
        {
          direct: true,
          method: route.method,
          path: routePath(route),
          headers: {
            ...headersFor(ownCaller(route), 'application/json'),
            'x-origin-verify': 'guessed-secret-value-1234',
          },
          body: '{}',
        },
        `${name} direct`,
      );
      expect(answer.status).toBe(403);
      expect(answer.problemType).toBe(problemTypes.originNotVerified);
    },
  );
});

describe('after all that', () => {
  it('a signed token with a __proto__ claim carrying the admin role is still only a user', async () => {
    const adminRoute = routes.find((route) => route.auth === 'admin' && route.method === 'GET');
    if (!adminRoute) throw new Error('no admin GET route');
    const answer = await send({ method: 'GET', path: adminRoute.path, headers: headersFor('protoClaim') });
    expect([401, 403]).toContain(answer.status);
  });

  it('nothing was polluted: the control requests answer as they did', async () => {
    for (const key of prototypeKeys)
      for (const route of bodyRoutes)
        await send({
          method: route.method,
          path: routePath(route),
          headers: headersFor(ownCaller(route), 'application/json'),
          body: `{"a":{"b":{${JSON.stringify(key)}:{"polluted":true,"isAdmin":true,"role":"admin"}}},${JSON.stringify(key)}:{"prototype":{"polluted":true}}}`,
        });
    expect(await controlAnswers()).toEqual(controlBefore);
    expect(controlBefore[0]?.status).toBe(403);
    expect(controlBefore[1]?.status).toBe(400);
  });
});
