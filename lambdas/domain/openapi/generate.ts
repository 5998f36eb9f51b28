import * as z from 'zod/mini';
import type { ApiContract } from '#contracts/api.ts';
import { problem, problemContentType } from '#contracts/problem.ts';
import type { RouteDef } from '#lambdas/routes.ts';

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
    responses: Record<string, JsonSchema>;
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

const problemStatuses = {
  400: 'The request is malformed or has invalid fields (see `errors`); nothing was written.',
  401: 'Authentication is missing or invalid.',
  403: 'The caller may not do this.',
  413: 'The request body exceeds 64 KiB.',
  429: 'Too many requests; honour `Retry-After` when present.',
} as const;
type ProblemStatus = keyof typeof problemStatuses;

function problemStatusesFor(route: RouteDef, contract: ApiContract): ProblemStatus[] {
  const statuses: ProblemStatus[] = [];
  const takesInput = Boolean(contract.request || contract.query || route.path.includes('{'));
  if (takesInput) statuses.push(400);
  if (route.auth !== 'public') statuses.push(401);
  if (route.auth === 'user' || route.auth === 'admin') statuses.push(403);
  if (contract.request) statuses.push(413);
  statuses.push(429);
  return statuses;
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

export function buildOpenApiDocument(input: {
  routes: RouteDef[];
  contracts: Record<string, ApiContract>;
  version: string;
}): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Problem: jsonSchemaOf(problem, 'output') };
  const paths: OpenApiDocument['paths'] = {};
  const responses: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(problemStatuses)) {
    responses[`Problem${status}`] = {
      description,
      content: { [problemContentType]: { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }

  for (const route of input.routes) {
    const contract = input.contracts[route.id];
    if (!contract) throw new Error(`No contract for route ${route.id} in lambdas/contracts/api.ts`);
    const parameters: unknown[] = [...pathParameters(route.path)];
    if (contract.query) parameters.push(...queryParameters(contract.query));
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
    if (contract.request) {
      const name = `${route.id}Request`;
      schemas[name] = jsonSchemaOf(contract.request, 'input');
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
      };
    }
    const responseName = `${route.id}Response`;
    schemas[responseName] = jsonSchemaOf(contract.response, 'output');
    operation.responses[String(contract.successStatus)] = {
      description: statusText[contract.successStatus] ?? 'Success',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseName}` } } },
    };
    for (const status of problemStatusesFor(route, contract)) {
      operation.responses[String(status)] = { $ref: `#/components/responses/Problem${status}` };
    }
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
        '(`application/problem+json`). Unknown request fields are refused.',
    },
    jsonSchemaDialect: dialect,
    paths,
    components: {
      schemas,
      responses,
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
