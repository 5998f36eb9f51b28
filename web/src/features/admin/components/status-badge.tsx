import type { KycStatus } from '#contracts/kyc.ts';
import { adminCopy } from '#web/content/admin.ts';

/** The status in words; the colour only repeats it. */
export function StatusBadge({ status }: { status: KycStatus }) {
  return <span className={`status-badge status-badge--${status}`}>{adminCopy.status[status]}</span>;
}
