// Every API route's route key (`'POST /api/registrations'`: its method and path, as API Gateway
// names a route), by route id: the only place a path is written. The rest of a route's contract
// (who may call it, its schemas, its answers) is its row in ./api.ts under the same id. Kept free
// of schemas, and split by who calls them, because each of the web's two API clients imports its
// table whole and the pages have byte budgets: a public page loads `publicRouteKeys`, a signed-in
// page only ./signed-in-route-keys.ts (ADR 0002).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `METHOD /api/path`, the path an API Gateway template (`{name}` for a path parameter). */
export type RouteKey = `${HttpMethod} /api/${string}`;

/** The `public` routes (the web's public client calls them, without a token). */
export const publicRouteKeys = {
  GetHealth: 'GET /api/health',
  CreateRegistration: 'POST /api/registrations',
  CreateWaitlistEntry: 'POST /api/waitlist',
  CreateInvestorInquiry: 'POST /api/investor-inquiries',
  CreateContactMessage: 'POST /api/contact',
  CreateDataDeletionRequest: 'POST /api/data-deletion-requests',
  ConfirmDataDeletionRequest: 'POST /api/data-deletion-requests/confirm',
  CreateCookieConsent: 'POST /api/cookie-consents',
  GetOpenApi: 'GET /api/openapi.json',
} as const satisfies Record<string, RouteKey>;

/** The routes other systems call (`persona-signature`): no web client has them. */
export const webhookRouteKeys = {
  ReceivePersonaWebhook: 'POST /api/webhooks/persona',
} as const satisfies Record<string, RouteKey>;
