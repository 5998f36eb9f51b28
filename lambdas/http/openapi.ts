import * as z from 'zod/mini';
import {
  type ProblemName,
  problem,
  problemContentType,
  problemTypeBase,
  problemTypes,
} from '#contracts/problem.ts';
import { problemDescriptions } from '#lambdas/http/problem-descriptions.ts';
import { type ProblemRow, problemTable, routeProblemNames } from '#lambdas/http/problems.ts';
import type { Route, RouteDef } from '#lambdas/routes.ts';

// GET /api/openapi.json: an OpenAPI 3.1 document generated from the route table and the zod
// contracts, so the description cannot drift from what the handlers enforce.

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
};
type Operation = Record<string, unknown> & { operationId: string; responses: Record<string, unknown> };

const dialect = 'https://json-schema.org/draft/2020-12/schema';

/** JSON Schema of what a client sends (`input`) or receives (`output`), without the `$schema` key. */
export function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/**
 * API Gateway's own answers (not problem+json, they do not come from our code): the JWT
 * authorizer's 401 and the throttling 429, which every route can meet.
 */
const gatewayMessage = z.object({ message: z.string() });

/** The route's problems grouped by status, each status one response listing its problem types. */
function problemResponses(names: ProblemName[], route: RouteDef): Record<string, unknown> {
  const byStatus = new Map<number, ProblemName[]>();
  for (const name of names) {
    const { status } = problemTable[name];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const gatewayStatuses = new Set([429, ...(route.auth === 'user' || route.auth === 'admin' ? [401] : [])]);
  for (const status of gatewayStatuses) if (!byStatus.has(status)) byStatus.set(status, []);
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const rows: [ProblemName, ProblemRow][] = group.map((name) => [name, problemTable[name]]);
    const lines = rows.map(
      ([name, row]) => `- \`${problemTypes[name]}\` (${row.title}): ${problemDescriptions[name]}`,
    );
    const content: Record<string, unknown> = {};
    if (group.length > 0) {
      content[problemContentType] = {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Problem' },
            { type: 'object', properties: { type: { enum: group.map((name) => problemTypes[name]) } } },
          ],
        },
      };
    }
    if (gatewayStatuses.has(status)) {
      lines.push(
        status === 401
          ? '- API Gateway\'s JWT authorizer refuses a missing or invalid token with `{"message":"Unauthorized"}`.'
          : '- API Gateway throttling answers `{"message":"Too Many Requests"}`.',
      );
      content['application/json'] = { schema: { $ref: '#/components/schemas/GatewayMessage' } };
    }
    const retryAfter = rows.some(([, row]) => row.retryAfter !== undefined);
    responses[String(status)] = {
      description: lines.join('\n'),
      ...(retryAfter
        ? {
            headers: {
              'Retry-After': {
                description: 'Seconds to wait before sending the request again.',
                schema: { type: 'integer', minimum: 1 },
              },
            },
          }
        : {}),
      content,
    };
  }
  return responses;
}

const statusText: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content' };

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function queryParameters(query: z.ZodMiniType) {
  const schema = jsonSchemaOf(query, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

export function buildOpenApiDocument(input: { routes: Route[]; version: string }): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {
    Problem: jsonSchemaOf(problem, 'output'),
    GatewayMessage: jsonSchemaOf(gatewayMessage, 'output'),
  };
  const paths: OpenApiDocument['paths'] = {};

  for (const route of input.routes) {
    const parameters: unknown[] = [...pathParameters(route.path)];
    if (route.query) parameters.push(...queryParameters(route.query));
    const operation: Operation = {
      operationId: route.id,
      summary: route.summary,
      tags: [route.auth],
      responses: {},
    };
    if (route.auth === 'user' || route.auth === 'admin') {
      operation.security = [{ bearerJwt: [] }];
      if (route.auth === 'admin')
        operation.description = 'Needs an access token whose role claim is `admin`.';
    } else {
      operation.security = [];
    }
    if (route.auth === 'persona-signature') {
      operation.description =
        'Called by Persona. The raw body must be signed: `Persona-Signature: t=<unix>,v1=<hex HMAC-SHA256 of ' +
        '"t.body">` (several space-separated pairs during secret rotation); verified before the body is parsed.';
      parameters.push({
        name: 'Persona-Signature',
        in: 'header',
        required: true,
        description: '`t=<unix seconds>,v1=<hex>`; timestamps older than 5 minutes are refused.',
        schema: { type: 'string' },
      });
    }
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.body) {
      const name = `${route.id}Request`;
      schemas[name] = jsonSchemaOf(route.body, 'input');
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
      };
    }
    const responseName = `${route.id}Response`;
    schemas[responseName] = jsonSchemaOf(route.response, 'output');
    operation.responses[String(route.successStatus)] = {
      description: statusText[route.successStatus] ?? 'Success',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseName}` } } },
    };
    Object.assign(operation.responses, problemResponses(routeProblemNames(route), route));
    const method = route.method.toLowerCase();
    paths[route.path] = { ...paths[route.path], [method]: operation };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform onboarding API',
      version: input.version,
      description:
        'Organization onboarding, consent and KYC. Errors are RFC 9457 problem details ' +
        '(`application/problem+json`) whose `type` is one of the URIs listed on each response ' +
        `(all under ${problemTypeBase}); compare \`type\`, not \`title\`. Unknown request fields are refused.`,
    },
    jsonSchemaDialect: dialect,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An Auth0 access token (RS256) for the API audience; the user is its `sub`.',
        },
      },
    },
  };
}
