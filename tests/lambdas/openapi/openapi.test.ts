import { describe, expect, it } from 'vitest';
import { apiContracts, routeIds } from '#contracts/api.ts';
import { buildOpenApiDocument } from '#lambdas/domain/openapi/generate.ts';
import { routes } from '#lambdas/routes.ts';

const document = buildOpenApiDocument({ routes, contracts: apiContracts, version: 'test' });

type Operation = {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref: string } }> }>;
};
const operation = (path: string, method: string) =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method.toLowerCase()];
const resolve = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with JSON Schema 2020-12', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('has a contract for exactly the routes of routes.ts', () => {
    expect([...routeIds].sort()).toEqual(routes.map((route) => route.id).sort());
  });

  it.each(routes.map((route) => [route.id, route] as const))(
    'lists %s with its method, summary, path parameters and security',
    (_id, route) => {
      const op = operation(route.path, route.method);
      expect(op).toBeDefined();
      if (!op) return;
      expect(op.operationId).toBe(route.id);
      expect(op.summary).toBe(route.summary);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(pathParams);
      expect(op.parameters?.filter((p) => p.in === 'path').every((p) => p.required) ?? true).toBe(true);
      if (route.auth === 'user' || route.auth === 'admin') expect(op.security).toEqual([{ bearerJwt: [] }]);
      else expect(op.security).toEqual([]);
      if (route.auth === 'persona-signature') {
        expect(op.parameters).toContainEqual(
          expect.objectContaining({ name: 'Persona-Signature', in: 'header', required: true }),
        );
      }
      const success = String(apiContracts[route.id as keyof typeof apiContracts].successStatus);
      expect(op.responses[success]).toBeDefined();
      expect(op.responses['429']).toEqual({ $ref: '#/components/responses/Problem429' });
    },
  );

  it('describes errors as problem+json for 400, 401, 403, 413 and 429', () => {
    for (const status of [400, 401, 403, 413, 429]) {
      expect(document.components.responses[`Problem${status}`]).toMatchObject({
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
    }
    const contact = operation('/api/contact', 'POST');
    expect(Object.keys(contact?.responses ?? {}).sort()).toEqual(['201', '400', '413', '429']);
    const decision = operation('/api/admin/verifications/{userId}/decision', 'POST');
    expect(Object.keys(decision?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '413', '429']);
  });

  it('takes request bodies from the zod contracts, with their limits', () => {
    const contact = operation('/api/contact', 'POST');
    const schema = resolve(contact?.requestBody?.content['application/json']?.schema.$ref ?? '');
    expect(schema).toMatchObject({
      type: 'object',
      required: ['name', 'email', 'organization', 'message'],
      properties: { message: { type: 'string', minLength: 10, maxLength: 5000 } },
    });
    const deletion = operation('/api/data-deletion-requests', 'POST');
    const answer = resolve(deletion?.responses['202']?.content?.['application/json']?.schema.$ref ?? '');
    expect(answer).toMatchObject({ required: ['requestId', 'dueBy'] });
  });

  it('gives the admin queue its status query parameter', () => {
    const list = operation('/api/admin/verifications', 'GET');
    expect(list?.parameters).toContainEqual(expect.objectContaining({ name: 'status', in: 'query' }));
  });

  it("describes the queue's items with the organization, inquiry and history", () => {
    const list = operation('/api/admin/verifications', 'GET');
    const answer = resolve(list?.responses['200']?.content?.['application/json']?.schema.$ref ?? '') as {
      required: string[];
      properties: { items: { items: { required: string[]; properties: Record<string, unknown> } } };
    };
    expect(answer.required).toEqual(expect.arrayContaining(['items', 'truncated']));
    expect(answer.properties.items.items.required).toEqual(
      expect.arrayContaining(['organizationName', 'organizationType', 'inquiryId', 'history', 'email']),
    );
    expect(answer.properties.items.items.properties.history).toMatchObject({
      type: 'array',
      items: { required: expect.arrayContaining(['status', 'previousStatus', 'decidedBy', 'reason', 'at']) },
    });
  });

  // Persona's webhook body is Persona's format, deliberately loose (lambdas/contracts/persona-webhook.ts).
  const ownRequests = Object.entries(document.components.schemas).filter(
    ([name]) => name.endsWith('Request') && name !== 'ReceivePersonaWebhookRequest',
  );

  it.each(ownRequests)('%s rejects unknown properties', (_name, schema) => {
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
  });
});
