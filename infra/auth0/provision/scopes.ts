// The Management API scopes provisioning needs, call by call, as Auth0's Management API v2
// reference lists them (https://auth0.com/docs/api/management/v2/<page>, each page's "Scopes"). The
// provisioning application is granted exactly their union (docs/deploying.md section 5.1, checked
// by tests/infra/docs.test.ts), and provisioning refuses to start, naming what is missing, when its
// token lacks one: before it reads or changes anything.

interface ScopedCall {
  /** The SDK call, as infra/auth0/provision/tenant.ts makes it. */
  call: string;
  /** Method and path of the Management API. */
  endpoint: string;
  /** The scope provisioning relies on (Auth0 lists alternatives for some reads; this one suffices). */
  scope: string;
  /** Its reference page under https://auth0.com/docs/api/management/v2/. */
  page: string;
  /** What provisioning does with it, for the refusal's message. */
  purpose: string;
}

export const provisioningCalls: readonly ScopedCall[] = [
  {
    call: 'clients.list',
    endpoint: 'GET /clients',
    scope: 'read:clients',
    page: 'clients/get-clients',
    purpose: 'find the applications',
  },
  {
    call: 'clients.create',
    endpoint: 'POST /clients',
    scope: 'create:clients',
    page: 'clients/post-clients',
    purpose: 'create the applications',
  },
  {
    call: 'clients.update',
    endpoint: 'PATCH /clients/{id}',
    scope: 'update:clients',
    page: 'clients/patch-clients-by-id',
    purpose: 'update the applications',
  },
  {
    call: 'resourceServers.list',
    endpoint: 'GET /resource-servers',
    scope: 'read:resource_servers',
    page: 'resource-servers/get-resource-servers',
    purpose: 'find the API',
  },
  {
    call: 'resourceServers.create',
    endpoint: 'POST /resource-servers',
    scope: 'create:resource_servers',
    page: 'resource-servers/post-resource-servers',
    purpose: 'create the API',
  },
  {
    call: 'resourceServers.update',
    endpoint: 'PATCH /resource-servers/{id}',
    scope: 'update:resource_servers',
    page: 'resource-servers/patch-resource-servers-by-id',
    purpose: 'update the API',
  },
  {
    call: 'clientGrants.list',
    endpoint: 'GET /client-grants',
    scope: 'read:client_grants',
    page: 'client-grants/get-client-grants',
    purpose: "find the functions' Management API grants",
  },
  {
    call: 'clientGrants.create',
    endpoint: 'POST /client-grants',
    scope: 'create:client_grants',
    page: 'client-grants/post-client-grants',
    purpose: "grant the functions' applications their scopes",
  },
  {
    call: 'clientGrants.update',
    endpoint: 'PATCH /client-grants/{id}',
    scope: 'update:client_grants',
    page: 'client-grants/patch-client-grants-by-id',
    purpose: "change the functions' grants",
  },
  {
    call: 'actions.list',
    endpoint: 'GET /actions/actions',
    scope: 'read:actions',
    page: 'actions/get-actions',
    purpose: 'find the post-login Action',
  },
  {
    call: 'actions.get',
    endpoint: 'GET /actions/actions/{id}',
    scope: 'read:actions',
    page: 'actions/get-action',
    purpose: "follow the Action's build",
  },
  {
    call: 'actions.create',
    endpoint: 'POST /actions/actions',
    scope: 'create:actions',
    page: 'actions/post-action',
    purpose: 'create the post-login Action',
  },
  {
    call: 'actions.update',
    endpoint: 'PATCH /actions/actions/{id}',
    scope: 'update:actions',
    page: 'actions/patch-action',
    purpose: 'update the post-login Action',
  },
  // Deploying lists create:actions, not update:actions.
  {
    call: 'actions.deploy',
    endpoint: 'POST /actions/actions/{id}/deploy',
    scope: 'create:actions',
    page: 'actions/post-deploy-action',
    purpose: 'deploy the post-login Action',
  },
  // The trigger's bindings are under the Actions scopes: Auth0 documents no read:triggers or update:triggers.
  {
    call: 'actions.triggers.bindings.list',
    endpoint: 'GET /actions/triggers/{triggerId}/bindings',
    scope: 'read:actions',
    page: 'actions/get-bindings',
    purpose: "read the post-login trigger's bindings",
  },
  {
    call: 'actions.triggers.bindings.updateMany',
    endpoint: 'PATCH /actions/triggers/{triggerId}/bindings',
    scope: 'update:actions',
    page: 'actions/patch-bindings',
    purpose: 'bind the Action to the post-login trigger',
  },
  {
    call: 'connections.list',
    endpoint: 'GET /connections',
    scope: 'read:connections',
    page: 'connections/get-connections',
    purpose: 'find the database connection',
  },
  {
    call: 'connections.get',
    endpoint: 'GET /connections/{id}',
    scope: 'read:connections',
    page: 'connections/get-connections-by-id',
    purpose: "read the connection's options before changing them",
  },
  {
    call: 'connections.create',
    endpoint: 'POST /connections',
    scope: 'create:connections',
    page: 'connections/post-connections',
    purpose: 'create the database connection',
  },
  {
    call: 'connections.update',
    endpoint: 'PATCH /connections/{id}',
    scope: 'update:connections',
    page: 'connections/patch-connections-by-id',
    purpose: "update the connection's options",
  },
  {
    call: 'connections.clients.get',
    endpoint: 'GET /connections/{id}/clients',
    scope: 'read:connections',
    page: 'connections/get-connection-clients',
    purpose: "read the connection's applications",
  },
  {
    call: 'connections.clients.update',
    endpoint: 'PATCH /connections/{id}/clients',
    scope: 'update:connections',
    page: 'connections/patch-clients',
    purpose: 'enable the connection for the applications',
  },
  // Also needs read:clients (or read:client_summary), which provisioning holds for clients.list.
  {
    call: 'clients.connections.get',
    endpoint: 'GET /clients/{id}/connections',
    scope: 'read:connections',
    page: 'clients/get-client-connections',
    purpose: 'list the connections the SPA signs people in through',
  },
  // The organization roles (issue 27): tenant roles, found by name.
  {
    call: 'roles.list',
    endpoint: 'GET /roles',
    scope: 'read:roles',
    page: 'roles/get-roles',
    purpose: 'find the organization roles',
  },
  {
    call: 'roles.create',
    endpoint: 'POST /roles',
    scope: 'create:roles',
    page: 'roles/post-roles',
    purpose: 'create the organization roles',
  },
  {
    call: 'roles.update',
    endpoint: 'PATCH /roles/{id}',
    scope: 'update:roles',
    page: 'roles/patch-roles-by-id',
    purpose: "update an organization role's description",
  },
];

/** Every scope the provisioning application needs: exactly these, no more (no read:client_keys). */
export const provisioningScopes: readonly string[] = [...new Set(provisioningCalls.map((c) => c.scope))];

/**
 * Refuses a token that lacks a scope provisioning needs, naming each missing scope and what it is
 * for; `granted` is the token answer's space-separated `scope`.
 */
export function assertProvisioningScopes(granted: string | undefined): void {
  const have = new Set((granted ?? '').split(' ').filter(Boolean));
  const missing = provisioningScopes.filter((scope) => !have.has(scope));
  if (missing.length === 0) return;
  const purposes = (scope: string) =>
    [...new Set(provisioningCalls.filter((c) => c.scope === scope).map((c) => c.purpose))].join('; ');
  throw new Error(
    `The provisioning application lacks ${missing.length === 1 ? 'a Management API scope' : 'Management API scopes'}; nothing was read or changed:\n` +
      missing.map((scope) => `  - ${scope} (to ${purposes(scope)})`).join('\n') +
      '\nAuthorize them in Applications > APIs > Auth0 Management API > Machine to Machine Applications (docs/deploying.md, 5.1), then run the provisioning again.',
  );
}
