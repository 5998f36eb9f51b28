import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import { AppSyncEventsPublisher } from '#lambdas/adapters/appsync-events-publisher.ts';
import { loadKycDecisionsHandlers } from '#local/appsync-events/handlers.ts';
import { type RunningAppSyncEvents, startAppSyncEvents } from '#local/appsync-events/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';

// The local AppSync Events emulator as a client and an attacker meet it: the real-time protocol with
// an Auth0 access token, the per-user rule, and the SigV4-signed HTTP publish of the product's own
// publisher.

const issuer = 'http://localhost:4999/';
const audience = 'https://api.platform.local';
const alice = 'auth0|alice0000000000000000001';
const bob = 'auth0|bob00000000000000000000002';

let key: SigningKey;
let otherKey: SigningKey;
let jwksServer: Server;
let api: RunningAppSyncEvents;

beforeAll(async () => {
  key = await signingKey('k1');
  otherKey = await signingKey('k1');
  const jwksPort = await freePort();
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [key.jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(jwksPort, '127.0.0.1', resolve));
  api = await startAppSyncEvents({
    port: await freePort(),
    region: 'eu-central-1',
    oidc: { issuer, audience, jwksUri: `http://127.0.0.1:${jwksPort}/.well-known/jwks.json` },
    namespaces: { 'kyc-decisions': await loadKycDecisionsHandlers() },
  });
});
afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
});

const accessToken = (sub: string, signer = key, claims: Record<string, unknown> = {}) =>
  signer.sign({ iss: issuer, aud: audience, sub, ...freshTimes(), ...claims });

const headerProtocol = (token: string) =>
  `header-${Buffer.from(JSON.stringify({ host: new URL(api.httpDomain).host, Authorization: token })).toString('base64url')}`;

/** Connects and collects every message; resolves once open (or with the refusal). */
async function connect(
  token: string,
): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] } | 'refused'> {
  const ws = new WebSocket(`${api.realtimeDomain}/event/realtime`, [
    'aws-appsync-event-ws',
    headerProtocol(token),
  ]);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ ws, messages }));
    ws.once('error', () => resolve('refused'));
  });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('never arrived');
}

async function subscribe(token: string, channel: string) {
  const connection = await connect(token);
  if (connection === 'refused') throw new Error('connection refused');
  const { ws, messages } = connection;
  ws.send(JSON.stringify({ type: 'connection_init' }));
  const ack = await until(() => messages.find((m) => m.type === 'connection_ack'));
  ws.send(
    JSON.stringify({
      type: 'subscribe',
      id: 'sub-1',
      channel,
      authorization: { host: new URL(api.httpDomain).host, Authorization: token },
    }),
  );
  const answer = await until(() => messages.find((m) => m.id === 'sub-1'));
  return { ws, messages, ack, answer };
}

const publisher = () => {
  process.env.AWS_ACCESS_KEY_ID = 'AKIDLOCALEXAMPLE0001';
  process.env.AWS_SECRET_ACCESS_KEY = 'local-secret';
  return new AppSyncEventsPublisher({ httpDomain: api.httpDomain, region: 'eu-central-1' });
};

describe('the local AppSync Events emulator', () => {
  it('refuses a connection without a valid access token: none, another signing key, another audience, expired', async () => {
    expect(await connect('')).toBe('refused');
    expect(await connect(await accessToken(alice, otherKey))).toBe('refused');
    expect(await connect(await accessToken(alice, key, { aud: 'https://other.api' }))).toBe('refused');
    const past = Math.floor(Date.now() / 1000) - 7200;
    expect(await connect(await accessToken(alice, key, { iat: past, exp: past + 60 }))).toBe('refused');
  });

  it("refuses a subscription to another user's channel and to a wildcard, with UnauthorizedException", async () => {
    const token = await accessToken(alice);
    for (const channel of [kycChannelPath(bob) ?? '', '/kyc-decisions/*']) {
      const { ws, answer } = await subscribe(token, channel);
      expect(answer).toMatchObject({
        type: 'subscribe_error',
        errors: [{ errorType: 'UnauthorizedException' }],
      });
      ws.close();
    }
  });

  it("delivers a signed publish to the user's own subscriber only", async () => {
    const aliceSide = await subscribe(await accessToken(alice), kycChannelPath(alice) ?? '');
    const bobSide = await subscribe(await accessToken(bob), kycChannelPath(bob) ?? '');
    expect(aliceSide.ack).toMatchObject({ type: 'connection_ack', connectionTimeoutMs: 300_000 });
    expect(aliceSide.answer).toEqual({ type: 'subscribe_success', id: 'sub-1' });

    await publisher().publish(kycChannelPath(alice) ?? '', [{ status: 'approved', occurredAt: 't1' }]);
    const data = await until(() => aliceSide.messages.find((m) => m.type === 'data'));
    expect(data).toEqual({
      type: 'data',
      id: 'sub-1',
      event: JSON.stringify({ status: 'approved', occurredAt: 't1' }),
    });
    expect(bobSide.messages.filter((m) => m.type === 'data')).toEqual([]);
    aliceSide.ws.close();
    bobSide.ws.close();
  });

  it('refuses an unsigned publish, and a browser publishing with its token', async () => {
    const unsigned = await fetch(`${api.httpDomain}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await accessToken(alice)}` },
      body: JSON.stringify({ channel: kycChannelPath(alice), events: ['{}'] }),
    });
    expect(unsigned.status).toBe(401);
    const { ws, messages } = await subscribe(await accessToken(alice), kycChannelPath(alice) ?? '');
    ws.send(JSON.stringify({ type: 'publish', id: 'pub-1', channel: kycChannelPath(alice), events: ['{}'] }));
    expect(await until(() => messages.find((m) => m.id === 'pub-1'))).toMatchObject({
      type: 'publish_error',
    });
    ws.close();
  });
});
