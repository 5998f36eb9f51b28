import * as z from 'zod/mini';
import { route } from './route.ts';

/** The OpenAPI document itself, loosely: enough to say what GET /api/openapi.json returns. */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export const getOpenApiRoute = route('GetOpenApi', {
  auth: 'public',
  response: openApiDocument,
  successStatus: 200,
  problems: [],
});
