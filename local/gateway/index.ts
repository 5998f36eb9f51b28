import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EventRuleDef } from '#lambdas/event-rules.ts';
import {
  originVerified,
  originVerifyHeader,
  perIpWriteLimit,
  perIpWriteLimitResponse,
  publicWriteRoutes,
  viewerAddressHeader,
  viewerIpOf,
} from '#lambdas/http/edge.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import type { RouteDef } from '#lambdas/routes.ts';
import { readRawBody } from '#local/http.ts';
import { createEventBus, type DeadLetter, type EventTarget } from './eventbridge.ts';
import {
  buildEvent,
  compileRoutes,
  lambdaContext,
  matchRoute,
  writeGatewayError,
  writeResult,
} from './http-api.ts';
import { createIpRateLimiter, type IpRateLimit } from './ip-rate-limit.ts';
import { type AuthorizerConfig, createJwtAuthorizer } from './jwt-authorizer.ts';
import { createSecretsManager } from './secrets-manager.ts';

// The local API gateway: every route of `lambdas/routes.ts` as API Gateway HTTP API would serve
// it, plus the local EventBridge endpoint at `eventBridgePath`.

export const eventBridgePath = '/__aws/events';
export const secretsManagerPath = '/__aws/secretsmanager';
/**
 * Local-only controls for tests and developers (never part of the product's API):
 * `GET /__local/dead-letters`, `POST /__local/events/settle`, `POST /__local/schedules/{ruleId}`.
 */
export const localControlPath = '/__local/';

const handlersDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../lambdas/handlers');

export interface GatewayOptions {
  port: number;
  authorizer: AuthorizerConfig;
  routes: RouteDef[];
  eventRules: EventRuleDef[];
  busName: string;
  region: string;
  /** Secret id -> value, served by the local Secrets Manager endpoint. */
  secrets?: Record<string, string>;
  /**
   * The origin secret the local CloudFront stand-ins (local/web) send. With it a request's
   * `CloudFront-Viewer-Address` is the client the per-IP limit counts; without, the socket's peer.
   */
  originSecret?: string;
  /** WAF's per-IP rule on the public write routes; `perIpWriteLimit` (lambdas/http/edge.ts) unless a test raises it. */
  perIpWriteLimit?: IpRateLimit;
  deadLetterFile?: string;
  /** Resolves a handler module name to its exported `handler`; defaults to lambdas/handlers/<name>.ts. */
  loadHandler?: (name: string) => Promise<unknown>;
  eventRetryDelayMs?: (attempt: number) => number;
  /** Local interval of scheduled rules; 0 disables their timers (tests trigger them by hand). */
  scheduleIntervalMs?: (rule: EventRuleDef) => number;
  log?: (line: string) => void;
}

export interface RunningGateway {
  url: string;
  eventBridgeEndpoint: string;
  secretsManagerEndpoint: string;
  deadLetters(): DeadLetter[];
  /** Resolves when every event delivery under way has finished (delivered or dead-lettered). */
  eventsSettled(): Promise<void>;
  /** Runs a scheduled rule's target now. */
  triggerSchedule(ruleId: string): Promise<void>;
  close(): Promise<void>;
}

/** API Gateway HTTP APIs accept payloads up to 10 MB; the handlers enforce their own smaller limit. */
const maxPayloadBytes = 10 * 1024 * 1024;

const loaded = new Map<string, Promise<unknown>>();

/** Loads `lambdas/handlers/<name>.ts` once, as a warm Lambda container keeps its module. */
export function defaultLoadHandler(name: string): Promise<unknown> {
  let handler = loaded.get(name);
  if (!handler) {
    handler = import(pathToFileURL(resolve(handlersDir, `${name}.ts`)).href).then((module) => module.handler);
    // A module that failed to load is tried again on the next request, as a new container would.
    handler.catch(() => loaded.delete(name));
    loaded.set(name, handler);
  }
  return handler;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const log = options.log ?? (() => {});
  const load = options.loadHandler ?? defaultLoadHandler;
  const compiled = compileRoutes(options.routes);
  const authorize = createJwtAuthorizer(options.authorizer);
  const bus = createEventBus({
    busName: options.busName,
    region: options.region,
    rules: options.eventRules,
    loadTarget: async (rule) => (await load(rule.handler)) as EventTarget,
    ...(options.eventRetryDelayMs ? { retryDelayMs: options.eventRetryDelayMs } : {}),
    ...(options.deadLetterFile ? { deadLetterFile: options.deadLetterFile } : {}),
    ...(options.scheduleIntervalMs ? { scheduleIntervalMs: options.scheduleIntervalMs } : {}),
    log,
  });

  const secretsManager = createSecretsManager(options.secrets ?? {});
  // WAF runs at the edge, before API Gateway: the same rule, on the same routes, keyed on the
  // viewer's address as CloudFront reports it.
  const writeRoutes = new Set(publicWriteRoutes(options.routes));
  const ipLimiter = createIpRateLimiter(options.perIpWriteLimit ?? perIpWriteLimit);
  const clientIp = (req: IncomingMessage): string => {
    const socketIp = req.socket.remoteAddress ?? '127.0.0.1';
    const header = req.headers[originVerifyHeader];
    const fromEdge =
      options.originSecret !== undefined &&
      typeof header === 'string' &&
      originVerified(header, [options.originSecret]);
    const viewer = req.headers[viewerAddressHeader];
    return (fromEdge && typeof viewer === 'string' ? viewerIpOf(viewer) : undefined) ?? socketIp;
  };
  const isPath = (pathname: string, base: string) => pathname === base || pathname === `${base}/`;

  async function control(method: string, pathname: string, res: ServerResponse) {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (method === 'GET' && pathname === `${localControlPath}dead-letters`)
      return json(200, bus.deadLetters());
    if (method === 'POST' && pathname === `${localControlPath}events/settle`) {
      await bus.settled();
      return json(200, { settled: true });
    }
    const schedule = /^\/__local\/schedules\/(\w+)$/.exec(pathname);
    if (method === 'POST' && schedule?.[1]) {
      try {
        await bus.triggerSchedule(schedule[1]);
        return json(200, { triggered: schedule[1] });
      } catch (error) {
        return json(404, { message: String(error) });
      }
    }
    return json(404, { message: 'Not Found' });
  }

  const server = createServer(async (req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    let body: Buffer;
    try {
      body = await readRawBody(req, maxPayloadBytes);
    } catch {
      return writeGatewayError(res, 413, 'Request Entity Too Large');
    }
    if (req.method === 'POST' && isPath(url.pathname, eventBridgePath)) return bus.handle(req, res, body);
    if (req.method === 'POST' && isPath(url.pathname, secretsManagerPath))
      return secretsManager(req, res, body);
    if (url.pathname.startsWith(localControlPath)) return control(req.method ?? 'GET', url.pathname, res);

    let matched: ReturnType<typeof matchRoute>;
    try {
      matched = matchRoute(compiled, req.method ?? 'GET', url.pathname);
    } catch {
      // A path parameter that is not valid percent-encoding (`%E0%A4%A`): API Gateway refuses it.
      return writeGatewayError(res, 400, 'Bad Request');
    }
    if (!matched) return writeGatewayError(res, 404, 'Not Found');
    const { route, pathParameters } = matched;
    if (writeRoutes.has(route) && !ipLimiter.allow(clientIp(req))) {
      log(`${req.method} ${url.pathname} 429 (per-IP limit)`);
      res.writeHead(perIpWriteLimitResponse.status, {
        'content-type': perIpWriteLimitResponse.contentType,
        'retry-after': String(perIpWriteLimitResponse.retryAfterSeconds),
        'content-length': Buffer.byteLength(perIpWriteLimitResponse.body),
      });
      return res.end(perIpWriteLimitResponse.body);
    }

    let authorizer: Parameters<typeof buildEvent>[0]['authorizer'];
    if (route.auth === 'user' || route.auth === 'admin') {
      const result = await authorize(req.headers.authorization);
      if (!result.ok) {
        log(`${req.method} ${url.pathname} 401 (authorizer: ${result.reason})`);
        return writeGatewayError(res, 401, 'Unauthorized', {
          'www-authenticate': `Bearer error="invalid_token"`,
        });
      }
      authorizer = { claims: result.claims, scopes: result.scopes };
    }

    const event = buildEvent({
      req,
      url,
      body,
      route,
      pathParameters,
      ...(authorizer ? { authorizer } : {}),
    });
    const timeoutSeconds = route.timeoutSeconds ?? 10;
    try {
      const handler = (await load(route.handler)) as HttpLambda;
      const result = await Promise.race([
        handler(event, lambdaContext(route.handler, timeoutSeconds)),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new LambdaTimeout()), timeoutSeconds * 1000).unref(),
        ),
      ]);
      writeResult(res, result);
    } catch (error) {
      if (error instanceof LambdaTimeout) writeGatewayError(res, 503, 'Service Unavailable');
      else {
        log(
          `${route.handler} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        writeGatewayError(res, 500, 'Internal Server Error');
      }
    }
    log(`${req.method} ${url.pathname} ${res.statusCode} ${(performance.now() - started).toFixed(0)}ms`);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });
  const url = `http://localhost:${options.port}`;
  return {
    url,
    eventBridgeEndpoint: `http://127.0.0.1:${options.port}${eventBridgePath}`,
    secretsManagerEndpoint: `http://127.0.0.1:${options.port}${secretsManagerPath}`,
    deadLetters: bus.deadLetters,
    eventsSettled: bus.settled,
    triggerSchedule: bus.triggerSchedule,
    close: async () => {
      bus.stopSchedules();
      await bus.settled();
      await new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      });
    },
  };
}

class LambdaTimeout extends Error {}
