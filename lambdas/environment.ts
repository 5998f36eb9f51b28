// The functions' environment, declared once, beside the tables (tables.ts) and the secrets
// (grants.ts `secretEnvVars`), whose names live with their rows. Plain data: the CDK stack
// (infra/stacks/backend-stack.ts, infra/api/grants.ts), the local stack (local/stack.ts) and the
// handlers' configuration (lambdas/config.ts) all read it, so a variable is named in one place.

export interface EnvVarDef {
  /** The variable's name in the function's environment. */
  name: string;
  /**
   * Who sets it: `every function` (the stack, from the stage's configuration), `grant` (with the
   * grant that needs it: infra/api/grants.ts), `rule` (an event rule's own settings), `local` (the
   * local stack only; unset in AWS), `lambda` (the Lambda runtime itself).
   */
  setBy: 'every function' | 'grant' | 'rule' | 'local' | 'lambda';
  purpose: string;
}

export const functionEnv = {
  appUrl: {
    name: 'APP_URL',
    setBy: 'every function',
    purpose:
      "The web origin, for links in emails. Unset on a stage's first deploy without a custom domain (ADR 0040).",
  },
  auth0Domain: {
    name: 'AUTH0_DOMAIN',
    setBy: 'every function',
    purpose: "The tenant's canonical domain: the Management API lives only there.",
  },
  auth0Issuer: {
    name: 'AUTH0_ISSUER',
    setBy: 'every function',
    purpose: "Auth0's issuer (a custom domain, if the tenant has one), with its trailing slash.",
  },
  auth0Audience: { name: 'AUTH0_AUDIENCE', setBy: 'every function', purpose: "The API's audience." },
  claimsNamespace: {
    name: 'CLAIMS_NAMESPACE',
    setBy: 'every function',
    purpose: "The namespace of the post-login Action's custom claims.",
  },
  auth0ManagementBaseUrl: {
    name: 'AUTH0_MANAGEMENT_BASE_URL',
    setBy: 'local',
    purpose:
      "The local identity provider's Management API (plain http); in AWS the SDK builds it from the domain.",
  },
  personaApiUrl: { name: 'PERSONA_API_URL', setBy: 'every function', purpose: "Persona's API." },
  personaTemplateId: {
    name: 'PERSONA_TEMPLATE_ID',
    setBy: 'every function',
    purpose: 'The inquiry template a verification starts from.',
  },
  operationsEmail: {
    name: 'OPERATIONS_EMAIL',
    setBy: 'every function',
    purpose: 'Where new-registration notices go.',
  },
  eventBusName: {
    name: 'EVENT_BUS_NAME',
    setBy: 'grant',
    purpose: 'The platform bus (with an `eventBus` grant).',
  },
  sesSender: { name: 'SES_SENDER', setBy: 'grant', purpose: 'The From address (with the `email` grant).' },
  sesConfigurationSet: {
    name: 'SES_CONFIGURATION_SET',
    setBy: 'grant',
    purpose: 'The configuration set every send names (with the `email` grant); unset locally.',
  },
  realtimeHttpDomain: {
    name: 'REALTIME_HTTP_DOMAIN',
    setBy: 'grant',
    purpose: "The realtime API's HTTP domain (with a `realtimePublish` grant).",
  },
  reconcileMinAgeMinutes: {
    name: 'KYC_RECONCILE_MIN_AGE_MINUTES',
    setBy: 'rule',
    purpose: 'How long an inquiry stays undecided before the reconciliation asks Persona (ADR 0038).',
  },
  reconcileMaxInquiries: {
    name: 'KYC_RECONCILE_MAX_INQUIRIES',
    setBy: 'rule',
    purpose: 'At most this many inquiries per reconciliation run (ADR 0038).',
  },
  powertoolsServiceName: {
    name: 'POWERTOOLS_SERVICE_NAME',
    setBy: 'every function',
    purpose: "The logs' and metrics' service name (read by Powertools too).",
  },
  powertoolsMetricsNamespace: {
    name: 'POWERTOOLS_METRICS_NAMESPACE',
    setBy: 'every function',
    purpose: 'The CloudWatch namespace of the custom metrics.',
  },
  powertoolsLogLevel: {
    name: 'POWERTOOLS_LOG_LEVEL',
    setBy: 'every function',
    purpose: 'The log level (read by Powertools).',
  },
  awsRegion: { name: 'AWS_REGION', setBy: 'lambda', purpose: "The function's region." },
} as const satisfies Record<string, EnvVarDef>;

export type EnvKey = keyof typeof functionEnv;

/** A function's environment from values by key: `{ appUrl: 'https://…' }` -> `{ APP_URL: 'https://…' }`. */
export function envVars(values: Partial<Record<EnvKey, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(values) as [EnvKey, string | undefined][])
    if (value !== undefined) env[functionEnv[key].name] = value;
  return env;
}
