import { getOpenApiRoute } from '#contracts/openapi-document.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '#lambdas/http/openapi.ts';
import { routes } from '#lambdas/routes.ts';

// Built once per container: the routes and contracts cannot change while it runs.
let document: OpenApiDocument | undefined;

export const handler = httpHandler({ route: getOpenApiRoute }, async () => {
  document ??= buildOpenApiDocument({ routes, version: '1.0.0' });
  return {
    status: 200,
    body: document,
    headers: { 'cache-control': 'public, max-age=300' },
  };
});
