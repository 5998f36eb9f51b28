// The functions' environment, declared once, beside the tables (tables.ts) and the secrets
// (grants.ts `secretEnvVars`), whose variables live with their rows. Plain data: the CDK stack
// (infra/stacks/backend-stack.ts, infra/api/grants.ts, infra/api/platform-function.ts), the local
// stack (local/stack.ts) and the handlers' configuration (lambdas/config.ts) all read it, so a
// variable is named in one place. Every function bundles it: names only, the rest is comments.
//
// Each comment says who sets the variable: every function from the stage's configuration, its grant
// (infra/api/grants.ts), its event rule (the rule's own settings), the local stack only (unset in
// AWS), or the Lambda runtime.

/** Key -> the variable's name in a function's environment. */
export const functionEnv = {
  /** Every function, from the stage. The web origin, for links in emails. Unset on a stage's first deploy without a custom domain (ADR 0040). */
  appUrl: 'APP_URL',
  /** Every function, from the stage. The tenant's canonical domain: the Management API lives only there. */
  auth0Domain: 'AUTH0_DOMAIN',
  /** Every function, from the stage. Auth0's issuer (a custom domain, if the tenant has one), with its trailing slash. */
  auth0Issuer: 'AUTH0_ISSUER',
  /** Every function, from the stage. The API's audience. */
  auth0Audience: 'AUTH0_AUDIENCE',
  /**
   * Every function, from the stage. The web application's Auth0 client id: an organization
   * invitation names the application its link signs in to (ADR 0084).
   */
  auth0SpaClientId: 'AUTH0_SPA_CLIENT_ID',
  /** Every function, from the stage. The namespace of the post-login Action's custom claims. */
  claimsNamespace: 'CLAIMS_NAMESPACE',
  /** The local stack only. The local identity provider's Management API (plain http); in AWS the SDK builds it from the domain. */
  auth0ManagementBaseUrl: 'AUTH0_MANAGEMENT_BASE_URL',
  /** Every function, from the stage. Persona's API. */
  personaApiUrl: 'PERSONA_API_URL',
  /** Every function, from the stage. The inquiry template a verification starts from. */
  personaTemplateId: 'PERSONA_TEMPLATE_ID',
  /** Every function, from the stage. `true`: four-eyes decisions (ADR 0080); unset or anything else: off. */
  fourEyes: 'FOUR_EYES',
  /** Every function, from the stage. Where new-registration notices go. */
  operationsEmail: 'OPERATIONS_EMAIL',
  /** With its grant. The platform bus (with an `eventBus` grant). */
  eventBusName: 'EVENT_BUS_NAME',
  /** With its grant. The From address (with the `email` grant). */
  sesSender: 'SES_SENDER',
  /** With its grant. The configuration set every send names (with the `email` grant); unset locally. */
  sesConfigurationSet: 'SES_CONFIGURATION_SET',
  /** With its grant. The realtime API's HTTP domain (with a `realtimePublish` grant). */
  realtimeHttpDomain: 'REALTIME_HTTP_DOMAIN',
  /** Its rule sets it. How long an inquiry stays undecided before the reconciliation asks Persona (ADR 0038). */
  reconcileMinAgeMinutes: 'KYC_RECONCILE_MIN_AGE_MINUTES',
  /** Its rule sets it. At most this many inquiries per reconciliation run (ADR 0038). */
  reconcileMaxInquiries: 'KYC_RECONCILE_MAX_INQUIRIES',
  /** Every function, from the stage. The logs' and metrics' service name (read by Powertools too). */
  powertoolsServiceName: 'POWERTOOLS_SERVICE_NAME',
  /** Every function, from the stage. The CloudWatch namespace of the custom metrics. */
  powertoolsMetricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** Every function, from the stage. The log level (read by Powertools). */
  powertoolsLogLevel: 'POWERTOOLS_LOG_LEVEL',
  /** The Lambda runtime sets it. The function's region. */
  awsRegion: 'AWS_REGION',
} as const;

export type EnvKey = keyof typeof functionEnv;

/** A function's environment from values by key: `{ appUrl: 'https://…' }` -> `{ APP_URL: 'https://…' }`. */
export function envVars(values: Partial<Record<EnvKey, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(values) as [EnvKey, string | undefined][])
    if (value !== undefined) env[functionEnv[key]] = value;
  return env;
}
