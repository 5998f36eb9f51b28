import type { TestProject } from 'vitest/node';
import type { StackInfo } from '#local/stack.ts';
import { type StackProcess, spawnStack } from '#local/stack-process.ts';
import { buildWeb } from '../../web/scripts/build.ts';
import { testPorts } from './test-ports.ts';

// Global setup of the `stack` project: builds the web, then runs `local/start.ts --web=dist`
// exactly as `npm start -- --web=dist` does (a child process on the test ports, state in a
// temporary directory) and hands `stack.json` to the tests.

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    /** The running stack's state directory (the identity provider's keys live in `idp/jwks.json`). */
    stackStateDir: string;
  }
}

let stack: StackProcess | undefined;

export default async function setup(project: TestProject) {
  if (!process.env.STACK_SKIP_BUILD) {
    // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build:
    // the browser tests run the production build, as CloudFront serves it.
    await buildWeb({
      env: { ...process.env, NODE_ENV: 'production' },
      viteArgs: ['--logLevel', 'warn'],
      quiet: true,
    });
  }
  stack = await spawnStack({
    ports: testPorts,
    web: 'dist',
    // Every test calls from one address: the per-IP limit's own test (tests/local/gateway/gateway.test.ts)
    // runs the production rule against its own gateway.
    // Auth0's Self Service quota (16/s, burst 50) rather than `npm start`'s Free (2/s): the suite
    // stays fast and still meets a real limit, shared by the functions and the tests' own calls
    // (ADR 0061; tests/helpers/management-api.ts waits out a 429 as x-ratelimit-reset asks).
    env: {
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      LOCAL_PER_IP_WRITE_LIMIT: '100000',
      LOCAL_AUTH0_PLAN: 'self-service',
    },
    echo: Boolean(process.env.STACK_VERBOSE),
  });
  project.provide('stack', stack.info);
  project.provide('stackStateDir', stack.stateDir);
  return async () => {
    await stack?.stop();
  };
}
