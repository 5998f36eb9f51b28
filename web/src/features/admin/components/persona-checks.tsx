import { useCallback } from 'react';
import type { FlaggedCheck } from '#contracts/flagged-checks.ts';
import { adminCopy } from '#web/content/admin.ts';
import { fetchEvidence } from '#web/features/admin/api/verifications.ts';
import { Disclosure } from '#web/features/admin/components/disclosure.tsx';
import { readable } from '#web/features/admin/lib/persona-names.ts';
import { useOnOpen } from '#web/features/admin/lib/use-on-open.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// Why Persona flagged a case (ADR 0082): the inquiry's verifications and the checks that failed,
// read from Persona when the reviewer opens the disclosure (one request per opening), so the queue
// stays one request and Persona's rate limit is spent only on the cases a reviewer looks at. The
// card's one line above it (`FlaggedChecks`) names the failed checks without a request.

const copy = adminCopy.checks;

export function PersonaChecks({ userId }: { userId: string }) {
  const fetcher = useCallback(
    (api: ApiClient, signal: AbortSignal) => fetchEvidence(api, userId, signal),
    [userId],
  );
  const { view: evidence, load } = useOnOpen(fetcher);

  const ready = evidence.state === 'ready' ? evidence.value : undefined;
  const failing = ready?.verifications.filter((verification) => verification.failedChecks.length > 0) ?? [];
  return (
    <Disclosure className="review-history review-checks" label={copy.summary} onOpen={load}>
      <div aria-live="polite">
        {evidence.state === 'loading' && <p className="review-history__empty">{copy.loading}</p>}
        {evidence.state === 'failed' && (
          <p className="review-history__empty">
            {copy.failed}{' '}
            <button type="button" className="link-button" onClick={load}>
              {copy.retry}
            </button>
          </p>
        )}
        {ready && <p className="review-history__meta">{copy.inquiryStatus(readable(ready.inquiryStatus))}</p>}
        {ready?.redacted && <p className="review-history__empty">{copy.redacted}</p>}
        {ready && !ready.redacted && failing.length === 0 && (
          <p className="review-history__empty">
            {ready.verifications.length === 0 ? copy.noVerifications : copy.noneFailed}
          </p>
        )}
      </div>
      {failing.length > 0 && (
        <ul className="review-history__list">
          {failing.map((verification) => (
            <li key={verification.id} className="review-history__entry">
              <p className="review-history__change">
                <strong>
                  {copy.verification(readable(verification.type), readable(verification.status))}
                </strong>
              </p>
              <ul className="review-checks__list">
                {verification.failedChecks.map((check) => (
                  <li key={check.name}>
                    <span className="review-history__label">{readable(check.name)}</span>{' '}
                    <code>{check.name}</code>
                    {check.reasons.length > 0 && (
                      <span className="review-history__reason">: {check.reasons.join(' ')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Disclosure>
  );
}

/**
 * Why Persona flagged the case, in one line visible without opening anything (ADR 0082's
 * amendment): the failed checks the queue item carries, from the last webhook event of the
 * inquiry, named as the disclosure names them. Nothing when none is known.
 */
export function FlaggedChecks({ checks }: { checks: readonly FlaggedCheck[] }) {
  if (checks.length === 0) return null;
  const names = [...new Set(checks.map((check) => readable(check.name)))];
  return (
    <p className="review-item__flagged">
      <strong>{copy.flagged}:</strong> {names.join(', ')}
    </p>
  );
}
