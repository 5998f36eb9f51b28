import type { StageConfig } from '#infra/stage-config.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { routes } from '#lambdas/routes.ts';
import { describeError, type Finding } from './findings.ts';

export interface LambdaAccountPort {
  /** Lambda GetAccountSettings: the account's concurrency limit and what is not reserved yet. */
  concurrency(): Promise<{ limit: number; unreserved: number }>;
}
/** Lambda keeps this much of the account's concurrency unreserved: a reservation may not eat into it. */
export const minimumUnreservedConcurrency = 100;
/** Service Quotas code of "Concurrent executions" (AWS Lambda). */
export const lambdaConcurrencyQuotaCode = 'L-B99A9384';

/** What the stage's functions reserve: the `reservedConcurrency` of the routes and rules the backend stack builds. */
export function stageReservedConcurrency(): { total: number; functions: { id: string; reserved: number }[] } {
  const functions = [...routes, ...eventRules].flatMap((def) =>
    def.reservedConcurrency ? [{ id: def.id, reserved: def.reservedConcurrency }] : [],
  );
  return { total: functions.reduce((sum, f) => sum + f.reserved, 0), functions };
}

export async function concurrencyCheck(config: StageConfig, lambda: LambdaAccountPort): Promise<Finding[]> {
  const check = 'Lambda concurrency';
  const reserved = stageReservedConcurrency();
  const list = reserved.functions.map((f) => `${f.id} ${f.reserved}`).join(', ');
  let account: { limit: number; unreserved: number };
  try {
    account = await lambda.concurrency();
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the account's Lambda settings (${describeError(error)})`,
        fix: `Check by hand: aws lambda get-account-settings --region ${config.region} --query AccountLimit (UnreservedConcurrentExecutions minus ${reserved.total} must stay at least ${minimumUnreservedConcurrency}).`,
      },
    ];
  }
  const left = account.unreserved - reserved.total;
  const facts = `the account allows ${account.limit} concurrent executions in ${config.region}, ${account.unreserved} unreserved; the stage reserves ${reserved.total} (${list}) and Lambda keeps ${minimumUnreservedConcurrency} unreserved`;
  if (left >= minimumUnreservedConcurrency) return [{ check, status: 'ok', detail: facts }];
  const wanted = account.limit - account.unreserved + reserved.total + minimumUnreservedConcurrency;
  return [
    {
      check,
      status: 'missing',
      detail: `${facts}: creating the backend stack would fail (a redeploy of this stage counts its own reservation twice here)`,
      fix:
        `Ask AWS for at least ${wanted} concurrent executions (new accounts often start at 10; 1000 is the usual default):\n` +
        `aws service-quotas request-service-quota-increase --region ${config.region} --service-code lambda --quota-code ${lambdaConcurrencyQuotaCode} --desired-value ${Math.max(1000, wanted)}\n` +
        `then wait for the increase (aws lambda get-account-settings --region ${config.region}).`,
    },
  ];
}
