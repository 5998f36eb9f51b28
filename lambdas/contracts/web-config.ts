import * as z from 'zod/mini';

// `/config.json`: the runtime values one web build needs for a stage. Written into the site
// bucket at deploy time (infra) and served by the local web server (local/web).
export const webConfig = z.strictObject({
  stage: z.string().check(z.minLength(1)),
  auth0: z.strictObject({
    /** Tenant domain (`tenant.eu.auth0.com`), or a URL with scheme for the local identity provider. */
    domain: z.string().check(z.minLength(1)),
    clientId: z.string().check(z.minLength(1)),
    audience: z.string().check(z.minLength(1)),
    claimsNamespace: z.string().check(z.url()),
  }),
  persona: z.strictObject({
    environmentId: z.string().check(z.minLength(1)),
    /** `host:port` of a Persona-compatible widget host; absent in AWS stages. */
    customHost: z.optional(z.string()),
  }),
  /**
   * The realtime API (AppSync Events) that pushes decisions to the status screen (ADR 0060): its
   * HTTP domain (the connection's `host`) and real-time domain (the WebSocket). Bare domains in
   * AWS (`<id>.appsync-api.<region>.amazonaws.com`, `<id>.appsync-realtime-api...`); URLs with a
   * scheme for the local emulator. Absent: the status screen polls.
   */
  realtime: z.optional(
    z.strictObject({
      httpDomain: z.string().check(z.minLength(1)),
      realtimeDomain: z.string().check(z.minLength(1)),
    }),
  ),
});
export type WebConfig = z.infer<typeof webConfig>;
