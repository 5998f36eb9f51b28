import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { type WebSocket, WebSocketServer } from 'ws';
import { listen, PayloadTooLargeError, readRawBody, sendJson } from '#local/http.ts';

// A local AppSync Events API (ADR 0060): the real-time endpoint's WebSocket protocol
// (`/event/realtime`, subprotocols `aws-appsync-event-ws` and `header-<base64url JSON>`,
// connection_init/ack, `ka`, subscribe/subscribe_success/subscribe_error, data, unsubscribe) and the
// HTTP publish endpoint (`POST /event`). Subscribing is authorized as the API's OIDC auth mode does
// it (the Auth0 access token: RS256 from the issuer's JWKS, issuer, audience, expiry), then by the
// namespace's onSubscribe handler, the same bundle AppSync runs. Publishing is AWS_IAM: a SigV4
// `Authorization` header of the right shape (this emulator, like the local gateway's other AWS
// endpoints, checks the signature's presence and form, not the secret).

export const realtimePath = '/event/realtime';
export const publishPath = '/event';
export const eventsSubprotocol = 'aws-appsync-event-ws';

/** AppSync's limits, kept locally: 5 events per publish, 240 KB per event, 5 channel segments. */
const maxEventsPerPublish = 5;
const maxEventBytes = 240 * 1024;
const maxSegments = 5;
const segmentPattern = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,48}[A-Za-z0-9])?$/;
/** Accepted by AWS and emulated: `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/appsync/aws4_request, ...`. */
const sigV4Pattern =
  /^AWS4-HMAC-SHA256 Credential=[A-Za-z0-9]{1,128}\/(\d{8})\/([a-z0-9-]+)\/appsync\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=[0-9a-f]{64}$/;

/** What an onSubscribe handler sees (the parts this product reads), shaped as AppSync's context. */
export interface SubscribeContext {
  identity: { sub: string; issuer: string; claims: JWTPayload };
  info: {
    channel: { path: string; segments: string[] };
    channelNamespace: { name: string };
    operation: 'SUBSCRIBE';
  };
}

/** A namespace's handlers module, as bundled for AppSync (`export function onSubscribe(ctx)`). */
export interface ChannelHandlers {
  onSubscribe?(ctx: SubscribeContext): void;
}

/** What the `@aws-appsync/utils` stand-in's `util.unauthorized()` throws (appsync-utils.ts). */
const isUnauthorized = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { appsyncUnauthorized?: unknown }).appsyncUnauthorized === true;

export interface AppSyncEventsOptions {
  port: number;
  region: string;
  /** The OIDC provider trusted for connecting and subscribing (Auth0's issuer and the API audience). */
  oidc: { issuer: string; audience: string; jwksUri: string };
  namespaces: Record<string, ChannelHandlers>;
  /** How often `ka` is sent (the product's realtime heartbeat: 30 s). */
  keepAliveMs?: number;
  /** What `connection_ack` announces: AppSync says 300000 (5 minutes). */
  connectionTimeoutMs?: number;
  log?(line: string): void;
}

export interface RunningAppSyncEvents {
  /** `http://localhost:<port>`: what the web's config calls the HTTP domain; the publish URL is `${httpDomain}/event`. */
  httpDomain: string;
  /** `ws://localhost:<port>`: the real-time domain (`${realtimeDomain}/event/realtime`). */
  realtimeDomain: string;
  close(): Promise<void>;
}

interface Subscription {
  id: string;
  channel: string;
  sub: string;
}

interface Connection {
  socket: WebSocket;
  sub: string;
  subscriptions: Map<string, Subscription>;
  keepAlive?: ReturnType<typeof setInterval>;
}

type Refusal = { errorType: string; message: string };

export async function startAppSyncEvents(options: AppSyncEventsOptions): Promise<RunningAppSyncEvents> {
  const log = options.log ?? (() => {});
  const jwks = createRemoteJWKSet(new URL(options.oidc.jwksUri), { cooldownDuration: 1_000 });
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? 300_000;
  const connections = new Set<Connection>();
  const httpDomain = `http://localhost:${options.port}`;

  async function verifyToken(token: unknown): Promise<JWTPayload | Refusal> {
    if (typeof token !== 'string' || token === '')
      return { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' };
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: options.oidc.issuer,
        audience: options.oidc.audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'sub'],
      });
      return payload;
    } catch (error) {
      log(`refused token: ${error instanceof errors.JOSEError ? error.code : String(error)}`);
      return { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' };
    }
  }

  function parseChannel(
    path: unknown,
    wildcardAllowed: boolean,
  ): { path: string; segments: string[]; namespace: string } | null {
    if (typeof path !== 'string') return null;
    const segments = (path.startsWith('/') ? path.slice(1) : path).split('/');
    if (segments.length < 1 || segments.length > maxSegments) return null;
    const valid = segments.every(
      (segment, index) =>
        segmentPattern.test(segment) || (wildcardAllowed && segment === '*' && index === segments.length - 1),
    );
    const namespace = segments[0] ?? '';
    if (!valid || !Object.hasOwn(options.namespaces, namespace)) return null;
    return { path: `/${segments.join('/')}`, segments, namespace };
  }

  const matches = (subscribed: string, channel: string) =>
    subscribed === channel || (subscribed.endsWith('/*') && channel.startsWith(subscribed.slice(0, -1)));

  const send = (socket: WebSocket, message: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  async function onMessage(connection: Connection, raw: string) {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw);
    } catch {
      return send(connection.socket, {
        type: 'error',
        errors: [{ errorType: 'BadRequestException', message: 'Invalid JSON' }],
      });
    }
    const id = typeof message.id === 'string' ? message.id : undefined;
    switch (message.type) {
      case 'connection_init':
        send(connection.socket, { type: 'connection_ack', connectionTimeoutMs });
        clearInterval(connection.keepAlive);
        connection.keepAlive = setInterval(() => send(connection.socket, { type: 'ka' }), keepAliveMs);
        return;
      case 'subscribe': {
        const refuse = (error: Refusal) =>
          send(connection.socket, { type: 'subscribe_error', id, errors: [error] });
        if (!id || connection.subscriptions.has(id))
          return refuse({ errorType: 'BadRequestException', message: 'A subscribe needs a new id.' });
        const channel = parseChannel(message.channel, true);
        if (!channel) return refuse({ errorType: 'BadRequestException', message: 'Invalid channel.' });
        const authorization = message.authorization as Record<string, unknown> | undefined;
        const claims = await verifyToken(authorization?.Authorization);
        if ('errorType' in claims) return refuse(claims as Refusal);
        const handlers = options.namespaces[channel.namespace];
        try {
          handlers?.onSubscribe?.({
            identity: { sub: String(claims.sub), issuer: String(claims.iss), claims },
            info: {
              channel: { path: channel.path, segments: channel.segments },
              channelNamespace: { name: channel.namespace },
              operation: 'SUBSCRIBE',
            },
          });
        } catch (error) {
          if (isUnauthorized(error)) {
            log(`subscribe refused by onSubscribe: ${channel.path}`);
            return refuse({
              errorType: 'UnauthorizedException',
              message: 'You are not authorized to make this call.',
            });
          }
          return refuse({ errorType: 'CodeHandlerError', message: 'The onSubscribe handler failed.' });
        }
        connection.subscriptions.set(id, { id, channel: channel.path, sub: String(claims.sub) });
        return send(connection.socket, { type: 'subscribe_success', id });
      }
      case 'unsubscribe':
        if (!id || !connection.subscriptions.delete(id))
          return send(connection.socket, {
            type: 'unsubscribe_error',
            id,
            errors: [{ errorType: 'UnknownOperationError', message: 'Unknown subscription id.' }],
          });
        return send(connection.socket, { type: 'unsubscribe_success', id });
      case 'publish':
        // Publishing is AWS_IAM only on this API: a browser's token may not publish.
        return send(connection.socket, {
          type: 'publish_error',
          id,
          errors: [
            { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' },
          ],
        });
      default:
        return send(connection.socket, {
          type: 'error',
          id,
          errors: [
            { errorType: 'UnsupportedOperation', message: `Unknown message type ${String(message.type)}` },
          ],
        });
    }
  }

  /** The `header-<base64url JSON>` subprotocol: the connection's `host` and `Authorization`. */
  function connectionHeader(protocols: string[]): Record<string, unknown> | null {
    const header = protocols.find((protocol) => protocol.startsWith('header-'));
    if (!header) return null;
    try {
      const value = JSON.parse(Buffer.from(header.slice('header-'.length), 'base64url').toString('utf8'));
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has(eventsSubprotocol) ? eventsSubprotocol : false),
  });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const path = (req.url ?? '/').split('?')[0];
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((protocol) => protocol.trim())
      .filter(Boolean);
    const reject = (status: number, reason: string) => {
      log(`connection refused: ${reason}`);
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (path !== realtimePath) return reject(404, 'Not Found');
    if (!protocols.includes(eventsSubprotocol)) return reject(400, 'Bad Request');
    const header = connectionHeader(protocols);
    if (!header || header.host !== new URL(httpDomain).host) return reject(401, 'Unauthorized');
    const claims = await verifyToken(header.Authorization);
    if ('errorType' in claims) return reject(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { socket: ws, sub: String(claims.sub), subscriptions: new Map() };
      connections.add(connection);
      ws.on('message', (data) => {
        onMessage(connection, data.toString()).catch((error: unknown) =>
          log(`message failed: ${String(error)}`),
        );
      });
      ws.on('close', () => {
        clearInterval(connection.keepAlive);
        connections.delete(connection);
      });
    });
  }

  async function publish(req: IncomingMessage, res: ServerResponse) {
    const unauthorized = (message: string) =>
      sendJson(res, 401, { errors: [{ errorType: 'UnauthorizedException', message }] });
    const badRequest = (message: string) =>
      sendJson(res, 400, { errors: [{ errorType: 'BadRequestException', message }] });
    const signature = sigV4Pattern.exec(String(req.headers.authorization ?? ''));
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (!signature || !/^\d{8}T\d{6}Z$/.test(amzDate) || signature[1] !== amzDate.slice(0, 8))
      return unauthorized('A SigV4-signed request (AWS_IAM) is required to publish.');
    if (signature[2] !== options.region)
      return unauthorized(`Credential should be scoped to ${options.region}.`);
    const signed = (signature[3] ?? '').split(';');
    if (!signed.includes('host') || !signed.includes('x-amz-date'))
      return unauthorized('The signature must cover host and x-amz-date.');
    let body: { channel?: unknown; events?: unknown };
    try {
      body = JSON.parse((await readRawBody(req, 1024 * 1024)).toString('utf8'));
    } catch (error) {
      return error instanceof PayloadTooLargeError
        ? badRequest('Payload too large.')
        : badRequest('Invalid JSON.');
    }
    const channel = parseChannel(body.channel, false);
    if (!channel) return badRequest('Invalid channel.');
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > maxEventsPerPublish)
      return badRequest(`events must hold 1 to ${maxEventsPerPublish} items.`);
    for (const event of events) {
      if (typeof event !== 'string' || Buffer.byteLength(event) > maxEventBytes)
        return badRequest('Each event must be a string of at most 240 KB.');
      try {
        JSON.parse(event);
      } catch {
        return badRequest('Each event must be a JSON value, as a string.');
      }
    }
    let delivered = 0;
    for (const connection of connections) {
      for (const subscription of connection.subscriptions.values()) {
        if (!matches(subscription.channel, channel.path)) continue;
        for (const event of events) send(connection.socket, { type: 'data', id: subscription.id, event });
        delivered += 1;
      }
    }
    log(`publish ${channel.path}: ${events.length} event(s) to ${delivered} subscription(s)`);
    sendJson(res, 200, {
      failed: [],
      successful: events.map((_, index) => ({ identifier: randomUUID(), index })),
    });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && path === publishPath) {
      publish(req, res).catch((error: unknown) => {
        log(`publish failed: ${String(error)}`);
        if (!res.headersSent)
          sendJson(res, 500, { errors: [{ errorType: 'InternalFailure', message: 'Error' }] });
      });
      return;
    }
    // Local controls (never part of AppSync): who is subscribed where, and dropping every connection.
    if (req.method === 'GET' && path === '/__local/subscriptions') {
      return sendJson(res, 200, {
        subscriptions: [...connections].flatMap((connection) =>
          [...connection.subscriptions.values()].map(({ channel, sub }) => ({ channel, sub })),
        ),
      });
    }
    if (req.method === 'POST' && path === '/__local/connections/close') {
      const closed = connections.size;
      for (const connection of connections) connection.socket.terminate();
      return sendJson(res, 200, { closed });
    }
    sendJson(res, 404, { errors: [{ errorType: 'NotFoundException', message: 'Not found' }] });
  });
  server.on('upgrade', (req, socket, head) => {
    upgrade(req, socket, head).catch((error: unknown) => {
      log(`upgrade failed: ${String(error)}`);
      socket.destroy();
    });
  });
  await listen(server, options.port);
  return {
    httpDomain,
    realtimeDomain: `ws://localhost:${options.port}`,
    close: async () => {
      for (const connection of connections) connection.socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
