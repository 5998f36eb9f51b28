import { createServer } from 'node:http';
import type { EventRuleDef } from '#lambdas/event-rules.ts';
import type { RouteDef } from '#lambdas/routes.ts';
import { createFaultKnob, faultSchemas } from '#local/faults.ts';
import { readRawBody } from '#local/http.ts';
import { createControls, createEventHold, localControlPath } from './controls.ts';
import { createRouteDispatch, defaultLoadHandler, noopRoute } from './dispatch.ts';
import type { DynamoDbCallLog } from './dynamodb-calls.ts';
import { createEventBus, type DeadLetter, defaultRetryDelayMs, type EventTarget } from './eventbridge.ts';
import { writeGatewayError } from './http-api.ts';
import type { IpRateLimit } from './ip-rate-limit.ts';
import type { AuthorizerConfig } from './jwt-authorizer.ts';
import { createSecretsManager } from './secrets-manager.ts';
import { createSesProxy, sesPath } from './ses-proxy.ts';

// The local API gateway: every route of `lambdas/routes.ts` as API Gateway HTTP API would serve
// it (dispatch.ts), the local EventBridge endpoint at `eventBridgePath`, Secrets Manager, the SES
// proxy (ses-proxy.ts) and the developer controls under `localControlPath` (controls.ts).

export const eventBridgePath = '/__aws/events';
export const secretsManagerPath = '/__aws/secretsmanager';
export { localControlPath, sesPath };

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
   * `x-viewer-ip` (the edge's copy of the viewer's IP) is the client the per-IP limit counts; without, the socket's peer.
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

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const log = options.log ?? (() => {});
  const load = options.loadHandler ?? defaultLoadHandler;
  const eventBridgeFaults = createFaultKnob(faultSchemas.eventBridge);
  const sesFaults = createFaultKnob(faultSchemas.ses);
  const hold = createEventHold();
  const bus = createEventBus({
    busName: options.busName,
    region: options.region,
    rules: options.eventRules,
    loadTarget: async (rule) => {
      const target = (await load(rule.handler)) as EventTarget;
      const calls = options.dynamoDbCallLog;
      return async (event, context) => {
        await hold.passed();
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
  const proxySes = options.sesEndpoint ? createSesProxy(options.sesEndpoint, sesFaults) : undefined;
  const control = createControls({
    bus,
    hold,
    faults: { eventBridge: eventBridgeFaults, ses: sesFaults },
    dynamoDbCallLog: options.dynamoDbCallLog,
    controls: options.controls,
  });
  const dispatch = createRouteDispatch({
    routes: options.routes,
    authorizer: options.authorizer,
    load,
    originSecret: options.originSecret,
    perIpWriteLimit: options.perIpWriteLimit,
    dynamoDbCallLog: options.dynamoDbCallLog,
    log,
  });
  const isPath = (pathname: string, base: string) => pathname === base || pathname === `${base}/`;

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
    if (proxySes && url.pathname.startsWith(`${sesPath}/`)) return proxySes(req, res, url, body);
    const noop = req.method === 'GET' && url.pathname === noopRoute.path;
    if (!noop && url.pathname.startsWith(localControlPath)) return control(req, url.pathname, res, body);
    return dispatch(req, res, url, body, started);
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
