import type { KycStatus } from '#contracts/kyc.ts';

// Persona event name -> KYC status (DESIGN section 4). Names not listed (inquiry.created,
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
