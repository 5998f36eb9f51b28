import { useId, useState } from 'react';
import type { ConsentHistoryRecord } from '#contracts/consent.ts';
import { accountCopy, consentPurposeName } from '#web/content/account.ts';
import { getConsentHistory } from '#web/features/account/api/get-consent-history.ts';
import { WithdrawConsent } from '#web/features/account/components/withdraw-consent.tsx';
import { WithdrawnConsentNotice } from '#web/features/account/components/withdrawn-consent-notice.tsx';
import { formatDateTime } from '#web/lib/dates.ts';
import { useSession } from '#web/lib/session.ts';
import { useResource } from '#web/lib/use-resource.ts';

const copy = accountCopy.consents;

// The caller's own consent ledger, newest first. Loading, empty and error states sit in one
// region with a reserved height, so the sections below do not jump when the answer arrives.
export function ConsentHistory() {
  const { api, me } = useSession();
  const headingId = useId();
  const history = useResource('my-consents', (signal) => getConsentHistory(api, signal));
  const [retrying, setRetrying] = useState(false);
  // Withdrawn in this visit: the notice stands at once, even if the fresh `me` could not be loaded.
  const [withdrawnHere, setWithdrawnHere] = useState(false);
  const withdrawn = me.consentWithdrawn || withdrawnHere;

  async function retry() {
    setRetrying(true);
    try {
      await history.reload();
    } finally {
      setRetrying(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="account-section">
      <h2 id={headingId}>{copy.heading}</h2>
      <p className="account-section__intro">{copy.intro}</p>
      {me.consentRecorded && !withdrawnHere && (
        <p className="account-section__actions">
          <WithdrawConsent
            onWithdrawn={(outcome) => {
              if (outcome === 'withdrawn') setWithdrawnHere(true);
              return history.reload();
            }}
          />
        </p>
      )}
      {withdrawn && <WithdrawnConsentNotice me={me} justWithdrawn={withdrawnHere} />}
      <div className="consent-history" aria-busy={history.state === 'loading'}>
        {history.state === 'loading' && (
          <p role="status" className="consent-history__status">
            {copy.loading}
          </p>
        )}
        {history.state === 'failed' && (
          <div role="alert" className="consent-history__status">
            <p>{copy.failed}</p>
            <button type="button" className="button button--secondary" disabled={retrying} onClick={retry}>
              {retrying ? copy.retrying : copy.retry}
            </button>
          </div>
        )}
        {history.state === 'ready' &&
          (history.data.records.length === 0 ? (
            <p className="consent-history__status">{copy.empty}</p>
          ) : (
            <ol className="consent-history__list">
              {newestFirst(history.data.records).map((record) => (
                <ConsentRecordItem key={record.consentId} record={record} />
              ))}
            </ol>
          ))}
      </div>
    </section>
  );
}

function newestFirst(records: readonly ConsentHistoryRecord[]): ConsentHistoryRecord[] {
  return [...records].sort((a, b) => b.recordedAt.localeCompare(a.recordedAt) || b.sequence - a.sequence);
}

function ConsentRecordItem({ record }: { record: ConsentHistoryRecord }) {
  return (
    <li className="consent-record">
      <p className="consent-record__head">
        <span className="consent-record__purpose">{consentPurposeName(record.purpose)}</span>
        <span className={`consent-record__action consent-record__action--${record.action}`}>
          {record.action === 'granted' ? copy.granted : copy.withdrawn}
        </span>
      </p>
      <p className="consent-record__meta">
        <time dateTime={record.recordedAt}>{formatDateTime(record.recordedAt)}</time>
        <span>
          {copy.textVersion} {record.documentVersion}
        </span>
        <span>{copy.method[record.method]}</span>
      </p>
    </li>
  );
}
