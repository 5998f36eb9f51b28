import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  originVerifier,
  originVerifyHeader,
  perIpRuleCovers,
  perIpWriteLimit,
  perIpWriteLimitResponse,
  viewerIpHeader,
  viewerIpOf,
} from '#lambdas/http/edge.ts';
import type { HttpLambda } from '#lambdas/http/http-handler.ts';
import type { RouteDef } from '#lambdas/routes.ts';
import { localControlPath } from './controls.ts';
import type { DynamoDbCallLog } from './dynamodb-calls.ts';
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

// The routes of `lambdas/routes.ts` as API Gateway HTTP API serves them: match, WAF's per-IP
// limit, the JWT authorizer, then the handler's invocation with its event, context and timeout.

/**
 * A route whose Lambda does nothing, served through the same emulation as every route of
 * routes.ts (event, context, timeout, result): `GET /api/health` against it is what the handler
 * wrapper costs, against `GET /__local/noop` what the gateway and the wrapper cost (issue 13).
 */
export const noopRoute: RouteDef = {
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

export interface DispatchOptions {
  routes: RouteDef[];
  authorizer: AuthorizerConfig;
  load: (name: string) => Promise<unknown>;
  /** See `GatewayOptions.originSecret`. */
  originSecret?: string | undefined;
  perIpWriteLimit?: IpRateLimit | undefined;
  dynamoDbCallLog?: DynamoDbCallLog | undefined;
  log: (line: string) => void;
}

/** Serves a request for a route (or `noopRoute`); `started` is when it arrived, for the log line. */
export function createRouteDispatch(options: DispatchOptions) {
  const { log, load } = options;
  const compiled = compileRoutes(options.routes);
  const authorize = createJwtAuthorizer(options.authorizer);
  // WAF runs at the edge, before API Gateway: the same rule, on the same routes, keyed on the
  // viewer's address as CloudFront reports it.
  // WAF looks at the path as sent, transformed (URL-decoded, lowercased), before any route matches:
  // a variant API Gateway then answers 404 still counts.
  const coveredByPerIpRule = perIpRuleCovers(options.routes);
  const ipLimiter = createIpRateLimiter(options.perIpWriteLimit ?? perIpWriteLimit);
  const fromOurEdge =
    options.originSecret === undefined ? () => false : originVerifier([options.originSecret]);
  const clientIp = (req: IncomingMessage): string => {
    const socketIp = req.socket.remoteAddress ?? '127.0.0.1';
    const header = req.headers[originVerifyHeader];
    const fromEdge = typeof header === 'string' && fromOurEdge(header);
    const viewer = req.headers[viewerIpHeader];
    return (fromEdge && typeof viewer === 'string' ? viewerIpOf(viewer) : undefined) ?? socketIp;
  };
  // A warm container's handler, once its module has loaded: no promise to wait for per request.
  const loadedHandlers = new Map<string, HttpLambda>([[noopRoute.handler, noopHandler]]);

  return async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
    started: number,
  ): Promise<void> => {
    if (coveredByPerIpRule(req.method ?? 'GET', url.pathname) && !ipLimiter.allow(clientIp(req))) {
      log(`${req.method} ${url.pathname} 429 (per-IP limit)`);
      res.writeHead(perIpWriteLimitResponse.status, {
        'content-type': perIpWriteLimitResponse.contentType,
        'retry-after': String(perIpWriteLimitResponse.retryAfterSeconds),
        'content-length': Buffer.byteLength(perIpWriteLimitResponse.body),
      });
      return void res.end(perIpWriteLimitResponse.body);
    }
    const noop = req.method === 'GET' && url.pathname === noopRoute.path;
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
