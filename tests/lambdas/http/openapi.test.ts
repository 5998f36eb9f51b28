import { describe, expect, it } from 'vitest';
import { routeIds } from '#contracts/api.ts';
import { problemTypes } from '#contracts/problem.ts';
import { buildOpenApiDocument } from '#lambdas/http/openapi.ts';
import { routes } from '#lambdas/routes.ts';

const document = buildOpenApiDocument({ routes, version: 'test' });

type Operation = {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<
    string,
    {
      description?: string;
      headers?: Record<string, unknown>;
      content?: Record<
        string,
        { schema: { $ref?: string; allOf?: { properties?: { type?: { enum?: string[] } } }[] } }
      >;
    }
  >;
};
/** The problem types a route's response for a status lists. */
const typesAt = (path: string, method: string, status: number) =>
  operation(path, method)?.responses[String(status)]?.content?.['application/problem+json']?.schema.allOf?.[1]
    ?.properties?.type?.enum ?? [];
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
      const success = String(route.successStatus);
      expect(op.responses[success]).toBeDefined();
      // Throttling: API Gateway's own answer on every route.
      expect(op.responses['429']?.content?.['application/json']?.schema.$ref).toBe(
        '#/components/schemas/GatewayMessage',
      );
      expect(typesAt(route.path, route.method, 500)).toEqual([problemTypes.internalError]);
    },
  );

  it('lists, per route and status, the problem types the route can answer', () => {
    const contact = operation('/api/contact', 'POST');
    // 403: every route refuses a request that did not come through CloudFront (ADR 0032).
    expect(Object.keys(contact?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '403',
      '413',
      '415',
      '429',
      '500',
    ]);
    expect(typesAt('/api/contact', 'POST', 403)).toEqual([problemTypes.originNotVerified]);
    expect(typesAt('/api/contact', 'POST', 415)).toEqual([problemTypes.unsupportedMediaType]);

    expect(typesAt('/api/consents', 'POST', 403)).toEqual([
      problemTypes.forbidden,
      problemTypes.originNotVerified,
      problemTypes.emailNotVerified,
    ]);
    expect(typesAt('/api/consents', 'POST', 409)).toEqual([problemTypes.consentDocumentChanged]);
    expect(typesAt('/api/me/kyc/inquiry', 'POST', 403)).toEqual([
      problemTypes.originNotVerified,
      problemTypes.emailNotVerified,
      problemTypes.consentRequired,
    ]);
    expect(typesAt('/api/me/kyc/inquiry', 'POST', 409)).toEqual([
      problemTypes.identityAlreadyVerified,
      problemTypes.verificationClosed,
      problemTypes.concurrentChange,
    ]);
    expect(typesAt('/api/me/kyc/inquiry', 'POST', 502)).toEqual([
      problemTypes.verificationProviderUnavailable,
    ]);
    expect(typesAt('/api/me/verification-email', 'POST', 429)).toEqual([problemTypes.rateLimited]);
    expect(typesAt('/api/webhooks/persona', 'POST', 401)).toEqual([problemTypes.invalidSignature]);

    const decision = operation('/api/admin/verifications/{userId}/decision', 'POST');
    expect(Object.keys(decision?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
    ]);
    expect(typesAt('/api/admin/verifications/{userId}/decision', 'POST', 403)).toEqual([
      problemTypes.originNotVerified,
      problemTypes.adminRequired,
      problemTypes.ownVerification,
      problemTypes.secondReviewerRequired,
    ]);
    expect(typesAt('/api/admin/verifications/{userId}/decision', 'POST', 409)).toEqual([
      problemTypes.verificationNotSubmitted,
      problemTypes.concurrentChange,
    ]);
    // The JWT authorizer's own 401 is API Gateway's body, not a problem.
    expect(decision?.responses['401']?.content?.['application/json']?.schema.$ref).toBe(
      '#/components/schemas/GatewayMessage',
    );
  });

  it('describes every listed problem type and the Retry-After of the kinds that send one', () => {
    // GET /api/me never reaches Auth0 (ADR 0059): its sign-in service cannot be busy.
    expect(operation('/api/me', 'GET')?.responses['503']).toBeUndefined();
    const resend = operation('/api/me/verification-email', 'POST');
    expect(resend?.responses['503']?.description).toContain(problemTypes.serviceUnavailable);
    expect(resend?.responses['503']?.headers).toHaveProperty('Retry-After');
    expect(operation('/api/me/verification-email', 'POST')?.responses['429']?.headers).toHaveProperty(
      'Retry-After',
    );
    expect(operation('/api/health', 'GET')?.responses['500']?.headers).toBeUndefined();
    const inquiry = operation('/api/me/kyc/inquiry', 'POST');
    expect(inquiry?.responses['403']?.description).toContain('email_verified');
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
    expect(answer).toMatchObject({ required: ['requestId', 'confirmBy', 'dueBy'] });
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

  it('describes GET /api/me with what the status screen and the account page read of the consent', () => {
    const me = operation('/api/me', 'GET');
    const answer = resolve(me?.responses['200']?.content?.['application/json']?.schema.$ref ?? '') as {
      required: string[];
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    expect(answer.required).toEqual(
      expect.arrayContaining(['consentRecorded', 'consentWithdrawn', 'kycStatus', 'deletionRequest']),
    );
    expect(answer.properties.consentWithdrawn).toMatchObject({ type: 'boolean' });
    expect(answer.additionalProperties).toBe(false);
  });

  // Persona's webhook body is Persona's format, deliberately loose (lambdas/contracts/persona-webhook.ts).
  const ownRequests = Object.entries(document.components.schemas).filter(
    ([name]) => name.endsWith('Request') && name !== 'ReceivePersonaWebhookRequest',
  );

  it.each(ownRequests)('%s rejects unknown properties', (_name, schema) => {
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
  });
});
