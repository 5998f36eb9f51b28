import { existsSync } from 'node:fs';
import { defaultPorts, type LocalPorts } from '#local/ports.ts';
import { type StackProcess, spawnStack } from '#local/stack-process.ts';

// The stack the onboarding load runs against, for `npm run test:load` and the small run in
// `npm test` alike: `npm start -- --web=dist` as a child process, with the identity provider at
// Auth0's Free plan (burst 2, 2 requests/s for the whole tenant: ADR 0061), the per-IP limit of
// the public forms out of the way (every simulated organization calls from this one address).

export const loadStackEnv = {
  LOCAL_AUTH0_PLAN: 'free',
  LOCAL_PER_IP_WRITE_LIMIT: '1000000',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
} as const;

/** `npm run test:load`'s ports: apart from `npm start`'s, the tests' and the bench's. */
export function loadPorts(offset = Number(process.env.STACK_PORT_OFFSET ?? 0)): LocalPorts {
  return Object.fromEntries(
    Object.entries(defaultPorts).map(([key, port]) => [key, port + 22_000 + offset]),
  ) as unknown as LocalPorts;
}

export function spawnLoadStack(ports: LocalPorts, options: { echo?: boolean } = {}): Promise<StackProcess> {
  if (!existsSync('web/dist/index.html'))
    throw new Error('web/dist is missing: build the web first (npm run build:local)');
  return spawnStack({
    ports,
    web: 'dist',
    env: { ...loadStackEnv },
    ...(options.echo ? { echo: true } : {}),
    timeoutMs: 180_000,
  });
}
