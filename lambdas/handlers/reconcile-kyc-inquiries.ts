import * as z from 'zod/mini';
import { documentClient } from '#lambdas/adapters/dynamodb-client.ts';
import { DynamoDbKycAdminQueue } from '#lambdas/adapters/dynamodb-kyc-admin-queue.ts';
import { createEventPublisher } from '#lambdas/adapters/eventbridge-publisher.ts';
import { createPersonaClient } from '#lambdas/adapters/persona-client.ts';
import { tableName } from '#lambdas/config.ts';
import {
  maxInquiriesPerRunLimit,
  type ReconcileOptions,
  reconcileDefaults,
  reconcileInquiries,
} from '#lambdas/domain/kyc/reconcile-inquiries.ts';
import { systemClock } from '#lambdas/domain/ports.ts';
import { type EnvKey, functionEnv } from '#lambdas/environment.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// Scheduled (event rule ReconcileKycInquiries): finds undecided users whose inquiry has not moved
// for a while, reads each inquiry from Persona and hands what a lost webhook would have said to
// process-persona-event over the bus (ADR 0038).

/**
 * An operator's run by hand (`aws lambda invoke` with `{"detail":{...}}`, or the local gateway's
 * `POST /__local/schedules/ReconcileKycInquiries` with the same detail as its body) may override
 * the configured age and cap for that run; the schedule's own events carry an empty detail.
 */
const runOverrides = z.object({
  minAgeMinutes: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(60 * 24 * 60))),
  maxInquiries: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(maxInquiriesPerRunLimit))),
});

function configured(key: EnvKey, fallback: number): number {
  const name = functionEnv[key];
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number >= 0`);
  return value;
}

const reconcile = reconcileInquiries({
  finder: new DynamoDbKycAdminQueue(documentClient, tableName('kycState')),
  inquiries: createPersonaClient(),
  events: createEventPublisher(),
  clock: systemClock,
});

export const handler = eventHandler(
  { name: 'ReconcileKycInquiries run', detail: z.optional(runOverrides) },
  async (given) => {
    const overrides = given ?? {};
    const options: ReconcileOptions = {
      minAgeMinutes:
        overrides.minAgeMinutes ?? configured('reconcileMinAgeMinutes', reconcileDefaults.minAgeMinutes),
      maxInquiries:
        overrides.maxInquiries ?? configured('reconcileMaxInquiries', reconcileDefaults.maxInquiriesPerRun),
    };
    const result = await reconcile(options);
    if (result.published > 0) countMetric('KycReconciledEvents', result.published);
    logger.info('kyc inquiries reconciled', {
      ...options,
      checked: result.checked,
      published: result.published,
      unchanged: result.unchanged,
      failed: result.failed,
      skipped: result.skipped,
    });
    if (result.failed > 0) {
      countMetric('KycReconcileFailed', result.failed);
      // Fail the invocation so it shows in the function's error metric; the next run tries again.
      const first = result.errors[0];
      throw new Error(
        `${result.failed} inquiry check(s) failed: ${first instanceof Error ? first.message : String(first)}`,
      );
    }
  },
);
