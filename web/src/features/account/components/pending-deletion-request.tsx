import { type RefObject, useState } from 'react';
import type { OwnDeletionRequestState } from '#contracts/data-deletion.ts';
import { useToast } from '#web/components/toast.tsx';
import { accountCopy } from '#web/content/account.ts';
import { cancelOwnDataDeletion } from '#web/features/account/api/cancel-own-data-deletion.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { formatCalendarDate, formatDateTime } from '#web/lib/dates.ts';
import { useSession } from '#web/lib/session.ts';

const copy = accountCopy.deletion.pending;

// The person's own deletion request while it has not been carried out (ADR 0076): its dates, and
// the way to withdraw it until the operator starts. Shown instead of the form, so a pending
// request is never filed twice.
export function PendingDeletionRequest({
  request,
  email,
  justFiled,
  headingRef,
  onGone,
}: {
  request: OwnDeletionRequestState;
  email: string;
  /** Filed a moment ago on this page: the receipt's words. */
  justFiled: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** Cancelled, or found to be no longer pending: the form comes back. */
  onGone: (cancelled: boolean) => void;
}) {
  const { api } = useSession();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  // Told apart by status (404 `deletionRequestNotFound`, 409 `deletionNotCancellable`, the route's
  // only ones): importing the problem-type table here would move it into the shell's API client
  // chunk, about 460 B of /kyc/persona's budget.
  async function cancel() {
    setBusy(true);
    try {
      await cancelOwnDataDeletion(api, request.requestId);
      toast.success(copy.cancelled, { title: copy.cancelledTitle });
      onGone(true);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.status === 404) onGone(false);
      else if (error instanceof ApiError && error.status === 409) {
        toast.error(copy.tooLate, { title: copy.failedTitle });
      } else toast.error(copy.failed, { title: copy.failedTitle });
    }
  }

  return (
    <div className="deletion-pending">
      <h3 ref={headingRef} tabIndex={-1}>
        {justFiled ? accountCopy.deletion.receivedTitle : copy.heading}
      </h3>
      <p>
        {copy.requestedOn} <time dateTime={request.requestedAt}>{formatDateTime(request.requestedAt)}</time>,{' '}
        {copy.dueBy} <time dateTime={request.dueBy}>{formatCalendarDate(request.dueBy)}</time>.
      </p>
      <dl className="app-facts">
        <dt>{accountCopy.deletion.requestId}</dt>
        <dd>
          <code>{request.requestId}</code>
        </dd>
      </dl>
      {justFiled && <p>{accountCopy.deletion.receivedBody(email)}</p>}
      {request.cancellable ? (
        <div className="app-actions">
          <button type="button" className="button button--secondary" disabled={busy} onClick={cancel}>
            {busy ? copy.cancelling : copy.cancel}
          </button>
        </div>
      ) : (
        <p>{copy.inProgress}</p>
      )}
    </div>
  );
}
