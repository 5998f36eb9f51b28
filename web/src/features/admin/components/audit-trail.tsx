import { useCallback } from 'react';
import type { AdminAuditEntry } from '#contracts/admin-audit.ts';
import { isDecisionReasonCode } from '#contracts/kyc-reasons.ts';
import { adminCopy } from '#web/content/admin.ts';
import { reasonLabel as decisionReasonLabel } from '#web/content/decision-reasons.ts';
import { fetchAuditTrail } from '#web/features/admin/api/verifications.ts';
import { Disclosure } from '#web/features/admin/components/disclosure.tsx';
import { useOnOpen } from '#web/features/admin/lib/use-on-open.ts';
import type { ApiClient } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/dates.ts';

// One verification's entries in the admin audit trail (ADR 0078), behind a disclosure that loads
// them when opened (useOnOpen): the queue itself stays one request however many cards it shows.

const copy = adminCopy.trail;

function actor(entry: AdminAuditEntry, currentAdminId: string): string {
  if (entry.actorType === 'operator') return copy.operator(entry.actorId);
  if (entry.actorType === 'member') return copy.member(entry.actorId);
  return entry.actorId === currentAdminId ? copy.you : copy.admin(entry.actorId);
}

const reasonLabel = (code: string) => (isDecisionReasonCode(code) ? decisionReasonLabel(code) : code);

export function AuditTrail({ userId, currentAdminId }: { userId: string; currentAdminId: string }) {
  const fetcher = useCallback(
    (api: ApiClient, signal: AbortSignal) => fetchAuditTrail(api, userId, signal),
    [userId],
  );
  const { view, load } = useOnOpen(fetcher);
  const trail = view.state === 'ready' ? view.value : undefined;

  return (
    <Disclosure className="review-history" label={copy.summary} onOpen={load}>
      <div aria-live="polite">
        {view.state === 'loading' && <p className="review-history__empty">{copy.loading}</p>}
        {view.state === 'failed' && (
          <p className="review-history__empty">
            {copy.failed}{' '}
            <button type="button" className="link-button" onClick={load}>
              {copy.retry}
            </button>
          </p>
        )}
        {trail && trail.entries.length === 0 && <p className="review-history__empty">{copy.empty}</p>}
      </div>
      {trail && trail.entries.length > 0 && (
        <ol className="review-history__list">
          {trail.entries.map((entry) => (
            <li key={entry.entryId} className="review-history__entry">
              <p className="review-history__change">
                <strong>{copy.action[entry.action]}</strong>
                {typeof entry.details.from === 'string' && typeof entry.details.to === 'string' && (
                  <>
                    {': '}
                    {adminCopy.status[entry.details.from as keyof typeof adminCopy.status] ??
                      entry.details.from}{' '}
                    <span aria-hidden="true">→</span>
                    <span className="visually-hidden">{adminCopy.history.to}</span>{' '}
                    {adminCopy.status[entry.details.to as keyof typeof adminCopy.status] ?? entry.details.to}
                  </>
                )}
              </p>
              <p className="review-history__meta">
                <time dateTime={entry.recordedAt}>{formatDateTime(entry.recordedAt)}</time>
                <span aria-hidden="true"> · </span>
                <span>
                  {copy.by} {actor(entry, currentAdminId)}
                </span>
                <span aria-hidden="true"> · </span>
                <span title={entry.hash}>{copy.entry(entry.sequence)}</span>
              </p>
              {entry.reasonCode && (
                <p className="review-history__reason">
                  <span className="review-history__label">{copy.reasonCode}:</span>{' '}
                  {reasonLabel(entry.reasonCode)}
                </p>
              )}
              {entry.reason && (
                <p className="review-history__reason">
                  <span className="review-history__label">{copy.reason}:</span> {entry.reason}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {trail?.truncated && <p className="review-history__empty">{copy.truncated(trail.entries.length)}</p>}
    </Disclosure>
  );
}
