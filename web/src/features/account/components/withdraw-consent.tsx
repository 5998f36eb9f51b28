import { useId, useRef, useState } from 'react';
import { useToast } from '#web/components/toast.tsx';
import { accountCopy } from '#web/content/account.ts';
import { withdrawConsent } from '#web/features/account/api/withdraw-consent.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';

const copy = accountCopy.consents.withdraw;

// "Withdraw consent" (GDPR Art. 7(3): as easy as giving it). Nothing happens before the person
// has read the consequences in a native modal <dialog> and confirmed there; a toast confirms, and
// the caller reloads the consent history so the withdrawal shows at once (ADR 0075).
export function WithdrawConsent({
  onWithdrawn,
}: {
  /** After the answer: `withdrawn` now, or `not-active` (409: never given or withdrawn already). */
  onWithdrawn: (outcome: 'withdrawn' | 'not-active') => Promise<void> | void;
}) {
  const { api, refreshMe } = useSession();
  const toast = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [busy, setBusy] = useState(false);
  // After a withdrawal this button goes and the notice takes the focus: the dialog's close event,
  // which the browser dispatches later, must not move it back here.
  const returnFocus = useRef(true);

  function open() {
    returnFocus.current = true;
    dialog.current?.showModal();
    // The safe choice has the focus: Enter does not withdraw by accident.
    cancel.current?.focus();
  }

  async function confirm() {
    setBusy(true);
    try {
      await withdrawConsent(api);
      returnFocus.current = false;
      dialog.current?.close();
      toast.success(copy.done);
      await Promise.all([onWithdrawn('withdrawn'), refreshMe().catch(() => undefined)]);
    } catch (error) {
      dialog.current?.close();
      const notActive = error instanceof ApiError && error.status === 409;
      toast.error(notActive ? copy.notActive : copy.failed);
      if (notActive) await onWithdrawn('not-active');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="button button--secondary"
        aria-haspopup="dialog"
        onClick={open}
      >
        {copy.open}
      </button>
      <dialog
        ref={dialog}
        className="action-dialog"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onClose={() => {
          if (returnFocus.current) opener.current?.focus();
        }}
      >
        <h2 id={titleId} className="action-dialog__title">
          {copy.title}
        </h2>
        <div id={bodyId}>
          {copy.consequences.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        <div className="app-actions">
          <button type="button" className="button" disabled={busy} onClick={confirm}>
            {busy ? copy.withdrawing : copy.confirm}
          </button>
          <button
            ref={cancel}
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => dialog.current?.close()}
          >
            {copy.cancel}
          </button>
        </div>
      </dialog>
    </>
  );
}
