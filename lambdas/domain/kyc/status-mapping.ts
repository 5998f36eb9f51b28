import type { KycStatus } from '#contracts/kyc.ts';
import type { DecisionReasonCode } from '#contracts/kyc-reasons.ts';

// Persona event name -> KYC status (docs/design.md section 4). Names not listed (inquiry.created,
// inquiry.started, inquiry.redacted, ...) are acknowledged and ignored.
const statusByEvent: Readonly<Record<string, KycStatus>> = {
  'inquiry.approved': 'approved',
  'inquiry.declined': 'rejected',
  'inquiry.failed': 'rejected',
  'inquiry.completed': 'pending',
  'inquiry.marked-for-review': 'pending',
};

export function statusForEvent(name: string): KycStatus | undefined {
  return Object.hasOwn(statusByEvent, name) ? statusByEvent[name] : undefined;
}

export const mappedEventNames = Object.keys(statusByEvent);

/** The reason code of Persona's decisions (`lambdas/contracts/kyc-reasons.ts`); null for the others. */
const reasonCodeByEvent: Readonly<Record<string, DecisionReasonCode>> = {
  'inquiry.approved': 'checks_passed',
  'inquiry.declined': 'checks_declined',
  'inquiry.failed': 'checks_failed',
};

export function reasonCodeForEvent(name: string): DecisionReasonCode | null {
  return Object.hasOwn(reasonCodeByEvent, name) ? (reasonCodeByEvent[name] ?? null) : null;
}

/**
 * How events with the same `created-at` are ordered (Persona's times are often whole seconds, so
 * `inquiry.completed` and `inquiry.approved` can share one): by the status they set, a decision
 * beating pending and a rejection beating an approval (contradictory decisions fail closed). An
 * event setting the same status as the last one at the same time changes nothing. Whatever the
 * arrival order, the same set of events ends in the same status.
 */
export const statusPrecedence: Readonly<Record<KycStatus, number>> = {
  not_started: 0,
  pending: 1,
  approved: 2,
  rejected: 3,
};

/** The statuses an event setting `status` supersedes when both carry the same time. */
export function statusesOutrankedBy(status: KycStatus): KycStatus[] {
  return (Object.keys(statusPrecedence) as KycStatus[]).filter(
    (other) => statusPrecedence[other] < statusPrecedence[status],
  );
}

/** Whether an event (its time and status) comes after the last applied one (null: none yet). */
export function isLaterEvent(
  event: { at: string; status: KycStatus },
  last: { at: string | null; status: KycStatus },
): boolean {
  if (last.at === null || last.at < event.at) return true;
  return last.at === event.at && statusPrecedence[last.status] < statusPrecedence[event.status];
}
