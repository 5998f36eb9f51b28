import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import type { HttpApiEvent, HttpApiResult, JwtClaimValue } from '#lambdas/http/api-gateway.ts';
import type { RouteDef } from '#lambdas/routes.ts';

// Mounts `routes.ts` like an API Gateway HTTP API with Lambda proxy integrations (payload 2.0).

export interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  params: string[];
}

export function compileRoutes(routes: RouteDef[]): CompiledRoute[] {
  return routes.map((route) => {
    const params: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (!param?.[1]) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        params.push(param[1]);
        return '([^/]+)';
      })
      .join('/');
    return { route, pattern: new RegExp(`^${source}$`), params };
  });
}

export function matchRoute(compiled: CompiledRoute[], method: string, path: string) {
  for (const candidate of compiled) {
    if (candidate.route.method !== method) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const pathParameters: Record<string, string> = {};
    candidate.params.forEach((name, index) => {
      pathParameters[name] = decodeURIComponent(match[index + 1] ?? '');
    });
    return { route: candidate.route, pathParameters };
  }
  return undefined;
}

const textTypes = /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript))/i;

export function buildEvent(input: {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  route: RouteDef;
  pathParameters: Record<string, string>;
  authorizer?: { claims: Record<string, JwtClaimValue>; scopes: string[] | null };
}): HttpApiEvent {
  const { req, url, body, route } = input;
  // From the raw name/value pairs, as sent (`headersDistinct` builds an array per header first):
  // names lower-cased, repeated headers joined with commas, cookies split into their own list.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  const raw = req.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const key = (raw[index] as string).toLowerCase();
    const value = raw[index + 1] as string;
    if (key === 'cookie') {
      cookies ??= [];
      for (const part of value.split(';')) cookies.push(part.trim());
      continue;
    }
    headers[key] = Object.hasOwn(headers, key) ? `${headers[key]},${value}` : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const isText = body.byteLength === 0 || textTypes.test(contentType);
  const now = new Date();
  const routeKey = `${route.method} ${route.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(Object.keys(input.pathParameters).length > 0 ? { pathParameters: input.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        // The connection's peer, as API Gateway reports it: behind CloudFront that is the edge (here
        // the local web server), never a client's X-Forwarded-For, which anyone can write.
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      ...(input.authorizer ? { authorizer: { jwt: input.authorizer } } : {}),
    },
    ...(body.byteLength > 0 ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.byteLength > 0 && !isText,
  };
}

function unsupported(): never {
  throw new Error('Callback-style completion is not used by these handlers');
}

/** The context Lambda passes an invocation, as far as a local run can fill it in. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

/** Writes a Lambda result the way API Gateway does (a non-result object becomes a 200 JSON body). */
export function writeResult(res: ServerResponse, result: unknown, requestId: string = randomUUID()) {
  const shaped: HttpApiResult =
    result !== null && typeof result === 'object' && 'statusCode' in result
      ? (result as HttpApiResult)
      : {
          statusCode: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(result ?? null),
        };
  // A text body is written as the string it is: with the headers it goes out in one write, where a
  // Buffer made of it would cost a copy and a second chunk.
  const body = shaped.isBase64Encoded ? Buffer.from(shaped.body ?? '', 'base64') : (shaped.body ?? '');
  const headers: Record<string, string | string[]> = { ...shaped.headers };
  if (shaped.cookies?.length) headers['set-cookie'] = shaped.cookies;
  headers['apigw-requestid'] = requestId;
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(shaped.statusCode, headers);
  res.end(body);
}

/** API Gateway's own error answers (not problem+json: they do not come from our code). */
export function writeGatewayError(res: ServerResponse, status: number, message: string, extra = {}) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}
