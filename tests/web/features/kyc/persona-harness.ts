import { vi } from 'vitest';
import type { WebConfig } from '#contracts/web-config.ts';
import { json } from '#tests/web/stub-api.ts';
import { baseMe, type FetchCall, stubFetch } from './kyc-harness.tsx';

// The backend and runtime config the /kyc/persona screen talks to, stubbed at `fetch`.

export const webConfig: WebConfig = {
  stage: 'test',
  auth0: {
    domain: 'http://localhost:4010',
    clientId: 'local-spa',
    audience: 'https://api.platform.local',
    claimsNamespace: 'https://platform.local/',
  },
  persona: { environmentId: 'env_LocalSandbox0001', customHost: 'localhost:4020' },
};

export function stubPersonaBackend(inquiry: (call: FetchCall) => Response | Promise<Response>) {
  return stubFetch((call) => {
    if (call.url === '/config.json') return json(200, webConfig);
    if (call.url === '/api/me/kyc/inquiry') return inquiry(call);
    if (call.url === '/api/me') return json(200, baseMe);
    return json(404, {});
  });
}

/** Silences (and records) the screen's console.error on its failure paths. */
export function quietConsoleError() {
  return vi.spyOn(console, 'error').mockImplementation(() => undefined);
}
