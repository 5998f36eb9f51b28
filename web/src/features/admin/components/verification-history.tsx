import type { VerificationHistoryEntry } from '#contracts/admin-verifications.ts';
import { adminCopy } from '#web/content/admin.ts';
import { reasonLabel } from '#web/content/decision-reasons.ts';
import { Disclosure } from '#web/features/admin/components/disclosure.tsx';
import { formatDateTime } from '#web/lib/dates.ts';

const copy = adminCopy.history;

function decidedBy(entry: VerificationHistoryEntry, currentAdminId: string): string {
  if (entry.decidedBy === 'persona') return copy.persona;
  if (entry.decidedBy === 'user') return copy.user;
  if (entry.adminId === currentAdminId) return copy.you;
  return copy.admin(entry.adminId ?? '');
}

/** Every status change of one verification, oldest first, behind a disclosure. */
export function VerificationHistory({
  entries,
  currentAdminId,
}: {
  entries: readonly VerificationHistoryEntry[];
  currentAdminId: string;
}) {
  return (
    <Disclosure className="review-history" label={copy.summary(entries.length)}>
      {entries.length === 0 ? (
        <p className="review-history__empty">{copy.empty}</p>
      ) : (
        <ol className="review-history__list">
          {entries.map((entry) => (
            <li
              key={`${entry.at}-${entry.previousStatus}-${entry.status}-${entry.action}`}
              className="review-history__entry"
            >
              {entry.action === 'new_attempt_allowed' ? (
                <p className="review-history__change">
                  <strong>{copy.newAttemptAllowed}</strong>
                </p>
              ) : entry.action === 'decision_proposed' ? (
                <p className="review-history__change">{copy.proposed(adminCopy.status[entry.status])}</p>
              ) : entry.action === 'decision_held' ? (
                <p className="review-history__change">
                  {copy.decisionHeld(adminCopy.status[entry.status], adminCopy.status[entry.previousStatus])}
                </p>
              ) : (
                <p className="review-history__change">
                  {adminCopy.status[entry.previousStatus]} <span aria-hidden="true">→</span>
                  <span className="visually-hidden">{copy.to}</span>{' '}
                  <strong>{adminCopy.status[entry.status]}</strong>
                </p>
              )}
              <p className="review-history__meta">
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                <span aria-hidden="true"> · </span>
                <span>
                  {copy.by} {decidedBy(entry, currentAdminId)}
                </span>
              </p>
              {entry.reasonCode && (
                <p className="review-history__reason">
                  <span className="review-history__label">{copy.reasonCode}:</span>{' '}
                  {reasonLabel(entry.reasonCode)}
                </p>
              )}
              {entry.reason && (
                <p className="review-history__reason">
                  <span className="review-history__label">
                    {entry.decidedBy === 'admin' ? copy.reason : copy.event}:
                  </span>{' '}
                  {entry.reason}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Disclosure>
  );
}
