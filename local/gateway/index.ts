import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EventRuleDef } from '#lambdas/event-rules.ts';
import {
  originVerifier,
  originVerifyHeader,
  perIpWriteLimit,
  perIpWriteLimitResponse,
  publicWriteRoutes,
  viewerAddressHeader,
  viewerIpOf,
} from '#lambdas/http/edge.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import type { RouteDef } from '#lambdas/routes.ts';
import { createFaultKnob, faultSchemas, handleFaultControl } from '#local/faults.ts';
import { readRawBody } from '#local/http.ts';
import type { DynamoDbCallLog } from './dynamodb-calls.ts';
import { createEventBus, type DeadLetter, defaultRetryDelayMs, type EventTarget } from './eventbridge.ts';
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
/** The SES v2 API, proxied to aws-ses-v2-local through the SES fault knob (ADR 0035). */
export const sesPath = '/__aws/ses';
/**
 * Local-only controls for tests and developers (never part of the product's API):
 * `GET /__local/dead-letters`, `POST /__local/events/settle`, `POST /__local/events/hold|release`
 * (target invocations wait while held: the bench's webhook acknowledgement), `POST /__local/schedules/{ruleId}`,
 * `POST /__local/dead-letters/redrive`, `GET /__local/events` (what the bus accepted),
 * `GET /__local/events/stats` (accepted, deliveries pending, throttles, dead letters: ADR 0062),
 * `GET|POST|DELETE /__local/faults` (the EventBridge and SES fault knobs, ADR 0035),
 * `POST|GET|DELETE /__local/dynamodb/calls` (start counting each invocation's DynamoDB calls, list
 * them, stop),
 * `GET /__local/noop` (answers at once: the bench's reference for the gateway's overhead),
 * `GET /__local/noop-route` (an empty Lambda handler behind the whole route emulation: the bench
 * holds health against it), `GET /__local/cpu` (this process's `process.cpuUsage()`: the bench's
 * CPU per request), and
 * `POST /__local/{name}` for each of `GatewayOptions.controls`.
 */
export const localControlPath = '/__local/';

/**
 * A route whose Lambda does nothing, served through the same emulation as every route of
 * routes.ts (event, context, timeout, result): `GET /api/health` against it is what the handler
 * wrapper costs, against `GET /__local/noop` what the gateway and the wrapper cost (issue 13).
 */
const noopRoute: RouteDef = {
  id: 'LocalNoop',
  method: 'GET',
  path: `${localControlPath}noop-route`,
  handler: '__local-noop',
  auth: 'public',
  throttle: { rateLimit: 0, burstLimit: 0 },
  grants: [],
  summary: 'Local only: an empty Lambda handler behind the gateway.',
  problems: [],
};
const noopHandler = async () => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: '{}',
});

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
  /** aws-ses-v2-local's endpoint: the gateway serves `sesPath` as a proxy to it, with the SES fault knob. */
  sesEndpoint?: string;
  /** Resolves a handler module name to its exported `handler`; defaults to lambdas/handlers/<name>.ts. */
  loadHandler?: (name: string) => Promise<unknown>;
  eventRetryDelayMs?: (attempt: number) => number;
  /** Backoff of a throttled event (reserved concurrency in use); Lambda's by default (ADR 0062). */
  eventThrottleRetryDelayMs?: (throttle: number) => number;
  /**
   * The stack's own knobs, `POST /__local/{name}` each (e.g. `dynamodb/stop`): answered 200 with
   * what the action returns once it has finished, 500 with the error if it failed.
   */
  controls?: Record<string, () => Promise<unknown>>;
  /** Local interval of scheduled rules; 0 disables their timers (tests trigger them by hand). */
  scheduleIntervalMs?: (rule: EventRuleDef) => number;
  log?: (line: string) => void;
  /**
   * Records each invocation's DynamoDB calls (issue 13) while a count runs: started with
   * `POST /__local/dynamodb/calls`, listed with `GET`, stopped with `DELETE`.
   */
  dynamoDbCallLog?: DynamoDbCallLog;
}

export interface RunningGateway {
  url: string;
  eventBridgeEndpoint: string;
  secretsManagerEndpoint: string;
  /** The SES proxy (`sesPath`), when `sesEndpoint` was given. */
  sesProxyEndpoint?: string;
  deadLetters(): DeadLetter[];
  /** Resolves when every event delivery under way has finished (delivered or dead-lettered). */
  eventsSettled(): Promise<void>;
  /** Runs a scheduled rule's target now (with `detail` as the scheduled event's detail). */
  triggerSchedule(ruleId: string, detail?: Record<string, unknown>): Promise<void>;
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
  const eventBridgeFaults = createFaultKnob(faultSchemas.eventBridge);
  // While held, target invocations wait (the bus keeps accepting): the bench measures an answer
  // without this process also running the targets, which in AWS are other functions.
  let held: Promise<void> = Promise.resolve();
  let release: (() => void) | undefined;
  const sesFaults = createFaultKnob(faultSchemas.ses);
  const bus = createEventBus({
    busName: options.busName,
    region: options.region,
    rules: options.eventRules,
    loadTarget: async (rule) => {
      const target = (await load(rule.handler)) as EventTarget;
      const calls = options.dynamoDbCallLog;
      return async (event, context) => {
        await held;
        return calls
          ? calls.run(rule.handler, event.id, () => target(event, context))
          : target(event, context);
      };
    },
    ...(options.eventThrottleRetryDelayMs ? { throttleRetryDelayMs: options.eventThrottleRetryDelayMs } : {}),
    retryDelayMs: (attempt) =>
      eventBridgeFaults.config?.retryDelayMs ?? (options.eventRetryDelayMs ?? defaultRetryDelayMs)(attempt),
    ...(options.deadLetterFile ? { deadLetterFile: options.deadLetterFile } : {}),
    ...(options.scheduleIntervalMs ? { scheduleIntervalMs: options.scheduleIntervalMs } : {}),
    faults: {
      putEventsEntryFails: () =>
        eventBridgeFaults.roll(eventBridgeFaults.config?.putEventsFailureRate ?? 0, 'putEventsEntry'),
      targetInvocationFails: () =>
        eventBridgeFaults.roll(eventBridgeFaults.config?.targetFailureRate ?? 0, 'targetInvocation'),
      deliveryDuplicated: () =>
        eventBridgeFaults.roll(eventBridgeFaults.config?.duplicateDeliveryRate ?? 0, 'duplicateDelivery'),
    },
    log,
  });

  const secretsManager = createSecretsManager(options.secrets ?? {});
  // WAF runs at the edge, before API Gateway: the same rule, on the same routes, keyed on the
  // viewer's address as CloudFront reports it.
  const writeRoutes = new Set(publicWriteRoutes(options.routes));
  const ipLimiter = createIpRateLimiter(options.perIpWriteLimit ?? perIpWriteLimit);
  const fromOurEdge =
    options.originSecret === undefined ? () => false : originVerifier([options.originSecret]);
  const clientIp = (req: IncomingMessage): string => {
    const socketIp = req.socket.remoteAddress ?? '127.0.0.1';
    const header = req.headers[originVerifyHeader];
    const fromEdge = typeof header === 'string' && fromOurEdge(header);
    const viewer = req.headers[viewerAddressHeader];
    return (fromEdge && typeof viewer === 'string' ? viewerIpOf(viewer) : undefined) ?? socketIp;
  };
  const isPath = (pathname: string, base: string) => pathname === base || pathname === `${base}/`;

  async function control(req: IncomingMessage, pathname: string, res: ServerResponse, body: Buffer) {
    const method = req.method ?? 'GET';
    if (
      await handleFaultControl(req, res, pathname, { eventBridge: eventBridgeFaults, ses: sesFaults }, body)
    )
      return;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (method === 'GET' && pathname === `${localControlPath}dead-letters`)
      return json(200, bus.deadLetters());
    if (method === 'GET' && pathname === `${localControlPath}events`) return json(200, bus.accepted());
    // The load run's view of the backlog: deliveries under way and throttles (ADR 0062).
    if (method === 'GET' && pathname === `${localControlPath}events/stats`)
      return json(200, {
        accepted: bus.accepted().length,
        pending: bus.pending(),
        throttles: bus.throttles(),
        deadLetters: bus.deadLetters().length,
      });
    // The benchmark's reference for the gateway's overhead: this server's cheapest answer.
    if (method === 'GET' && pathname === `${localControlPath}noop`) return json(200, {});
    // This process's CPU so far (every thread), µs: the bench reads it around each load (ADR 0063).
    if (method === 'GET' && pathname === `${localControlPath}cpu`) return json(200, process.cpuUsage());
    const calls = options.dynamoDbCallLog;
    if (calls && pathname === `${localControlPath}dynamodb/calls`) {
      if (method === 'GET') return json(200, calls.list());
      if (method === 'POST') {
        calls.start();
        return json(200, { counting: true });
      }
      if (method === 'DELETE') {
        calls.stop();
        return json(200, { counting: false });
      }
    }
    if (method === 'POST' && pathname === `${localControlPath}dead-letters/redrive`) {
      await bus.settled();
      const result = await bus.redrive();
      await bus.settled();
      return json(200, result);
    }
    if (method === 'POST' && pathname === `${localControlPath}events/hold`) {
      if (!release) held = new Promise((resolve) => (release = resolve));
      return json(200, { held: true });
    }
    if (method === 'POST' && pathname === `${localControlPath}events/release`) {
      release?.();
      release = undefined;
      return json(200, { held: false });
    }
    if (method === 'POST' && pathname === `${localControlPath}events/settle`) {
      await bus.settled();
      return json(200, { settled: true });
    }
    const name = pathname.slice(localControlPath.length);
    const action =
      options.controls && Object.hasOwn(options.controls, name) ? options.controls[name] : undefined;
    if (method === 'POST' && action) {
      try {
        return json(200, (await action()) ?? { done: true });
      } catch (error) {
        return json(500, { message: String(error) });
      }
    }
    const schedule = /^\/__local\/schedules\/(\w+)$/.exec(pathname);
    if (method === 'POST' && schedule?.[1]) {
      // An optional JSON body becomes the scheduled event's detail (a run's parameters, as an
      // operator's `aws lambda invoke` payload would carry them).
      let detail: Record<string, unknown> = {};
      try {
        if (body.length > 0) detail = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) throw new TypeError();
      } catch {
        return json(400, { message: 'The body must be a JSON object (the scheduled event detail)' });
      }
      try {
        await bus.triggerSchedule(schedule[1], detail);
        return json(200, { triggered: schedule[1] });
      } catch (error) {
        return json(404, { message: String(error) });
      }
    }
    return json(404, { message: 'Not Found' });
  }

  /**
   * SES v2 in front of aws-ses-v2-local: a send the knob fails is answered as SES throttles
   * (429 `TooManyRequestsException`), so the SDK's own retries and the target's see the real shape.
   */
  async function proxySes(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
    upstream: string,
  ): Promise<void> {
    const path = url.pathname.slice(sesPath.length);
    if (
      req.method === 'POST' &&
      path === '/v2/email/outbound-emails' &&
      sesFaults.roll(sesFaults.config?.sendFailureRate ?? 0, 'sendEmail')
    ) {
      const throttled = (sesFaults.config?.failureStatus ?? 429) === 429;
      res.writeHead(throttled ? 429 : 503, {
        'content-type': 'application/json',
        'x-amzn-errortype': throttled ? 'TooManyRequestsException' : 'ServiceUnavailable',
        'x-amzn-requestid': randomUUID(),
      });
      return void res.end(
        JSON.stringify({
          message: throttled
            ? 'Injected fault: Maximum sending rate exceeded.'
            : 'Injected fault: Service unavailable.',
        }),
      );
    }
    try {
      const answer = await fetch(`${upstream}${path}${url.search}`, {
        method: req.method ?? 'GET',
        // As sent (aws-ses-v2-local wants to see the SDK's authorization), minus the hop's own.
        headers: Object.fromEntries(
          Object.entries(req.headers).flatMap(([key, value]) =>
            typeof value === 'string' && !['host', 'connection', 'content-length'].includes(key)
              ? [[key, value]]
              : [],
          ),
        ),
        ...(body.byteLength > 0 ? { body: new Uint8Array(body) } : {}),
      });
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        if (key !== 'content-length' && key !== 'transfer-encoding' && key !== 'content-encoding')
          headers[key] = value;
      });
      res.writeHead(answer.status, headers);
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      writeGatewayError(res, 502, `SES upstream: ${String(error)}`);
    }
  }

  // A warm container's handler, once its module has loaded: no promise to wait for per request.
  const loadedHandlers = new Map<string, HttpLambda>([[noopRoute.handler, noopHandler]]);

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
    if (options.sesEndpoint && url.pathname.startsWith(`${sesPath}/`))
      return proxySes(req, res, url, body, options.sesEndpoint);
    const noop = req.method === 'GET' && url.pathname === noopRoute.path;
    if (!noop && url.pathname.startsWith(localControlPath)) return control(req, url.pathname, res, body);

    let matched: ReturnType<typeof matchRoute>;
    try {
      matched = noop
        ? { route: noopRoute, pathParameters: {} }
        : matchRoute(compiled, req.method ?? 'GET', url.pathname);
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
    const requestId = randomUUID();
    try {
      const handler = (loadedHandlers.get(route.handler) ??
        (await load(route.handler).then((loadedHandler) => {
          loadedHandlers.set(route.handler, loadedHandler as HttpLambda);
          return loadedHandler;
        }))) as HttpLambda;
      const calls = options.dynamoDbCallLog;
      const result = await withTimeout(
        calls
          ? calls.run(route.handler, requestId, () =>
              handler(event, lambdaContext(route.handler, timeoutSeconds)),
            )
          : handler(event, lambdaContext(route.handler, timeoutSeconds)),
        timeoutSeconds * 1000,
      );
      writeResult(res, result, requestId);
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
    ...(options.sesEndpoint ? { sesProxyEndpoint: `http://127.0.0.1:${options.port}${sesPath}` } : {}),
    secretsManagerEndpoint: `http://127.0.0.1:${options.port}${secretsManagerPath}`,
    deadLetters: bus.deadLetters,
    eventsSettled: bus.settled,
    triggerSchedule: bus.triggerSchedule,
    close: async () => {
      bus.stop();
      await bus.settled();
      await new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      });
    },
  };
}

class LambdaTimeout extends Error {}

/**
 * The invocation's answer, or LambdaTimeout once the route's timeout has passed. The timer is
 * cleared with the answer: left pending, every request would keep a timer and its closure alive for
 * the route's whole timeout (tens of thousands under load).
 */
function withTimeout<T>(invocation: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LambdaTimeout()), timeoutMs).unref();
    invocation.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
