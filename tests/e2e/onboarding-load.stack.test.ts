import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPorts } from '#local/ports.ts';
import type { StackProcess } from '#local/stack-process.ts';
import { formatReport, runOnboardingLoad } from '#scripts/load/onboarding.ts';
import { spawnLoadStack } from '#scripts/load/stack.ts';
import { testPorts } from '#tests/helpers/test-ports.ts';

// Issue 22, item 5, at the size of `npm test` (ADR 0062): organizations onboarded through the API
// all at once against a stack whose identity provider enforces Auth0's Free plan (2 requests/s for
// the whole tenant), with the driver of `npm run test:load` (scripts/load/onboarding.ts), which
// runs 1,000. The suite's shared stack runs at Self Service (tests/helpers/stack-setup.ts), so this
// file starts a second one at Free on the test ports shifted by 100, as `npm run test:load` does:
// its bus, dead letters, mailbox and Management API counters are this run's alone.

const organizations = 20;

const shifted = (ports: LocalPorts, by: number): LocalPorts =>
  Object.fromEntries(Object.entries(ports).map(([key, port]) => [key, port + by])) as unknown as LocalPorts;

let stack: StackProcess;
beforeAll(async () => {
  stack = await spawnLoadStack(shifted(testPorts, 100), { echo: Boolean(process.env.STACK_VERBOSE) });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('onboarding many organizations at once, Auth0 at the Free plan', () => {
  it(
    'onboards every one: nothing lost, no 5xx, every account synced, every decision seen, <= 9 Management API calls each',
    async () => {
      expect(stack.info.idp.managementApi).toMatchObject({ plan: 'free', burst: 2, perSecond: 2 });
      const report = await runOnboardingLoad(stack.info, {
        organizations,
        concurrency: organizations,
        // All of them in the same moment: at this count the local stack takes it without a 503.
        rampSeconds: 0,
        stepTimeoutMs: 6 * 60_000,
        drainTimeoutMs: 3 * 60_000,
        managementApiSample: 5,
      });
      console.info(`[onboarding-load]\n${formatReport(report)}`);
      expect(report.checks.filter((check) => !check.pass)).toEqual([]);
      expect(report.onboarded).toBe(organizations);
      expect(report.responses.filter((response) => response.status >= 500)).toEqual([]);
      expect(report.bus.deadLetters).toBe(0);
      // Registration: lookup, create, ticket, and the organization's create, member and role (its
      // role lookup once per container, ADR 0083); then one PATCH per status change (pending,
      // approved).
      expect(report.managementApi.perOrganization).toBeLessThanOrEqual(9);
    },
    10 * 60_000,
  );
});
