import { useId, useRef } from 'react';
import { teamCopy } from '#web/content/organization-team.ts';
import { useModalDialog } from '#web/lib/use-modal-dialog.ts';

const copy = teamCopy.confirm;

export interface Confirmation {
  title: string;
  body: readonly string[];
  confirm: string;
  /** Runs on confirm; the dialog stays open (its buttons disabled) until it settles. */
  run: () => Promise<void>;
}

// A native modal <dialog> that asks before a change nobody can undo from here (revoke, remove).
// Cancel has the focus, so Enter never confirms by accident; on close, focus goes where the
// screen says (`onClosed`: the button that opened it, or the list when that row is gone).
export function ConfirmDialog({
  confirmation,
  busy,
  onClose,
}: {
  confirmation: Confirmation | null;
  busy: boolean;
  onClose: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog(confirmation !== null, cancel);
  const titleId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={dialog}
      className="action-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape while the request runs would hide a change still being made.
        if (busy) event.preventDefault();
      }}
      onClose={() => {
        if (confirmation) onClose();
      }}
    >
      <h2 id={titleId} className="action-dialog__title">
        {confirmation?.title}
      </h2>
      <div id={bodyId}>
        {confirmation?.body.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <div className="app-actions">
        <button type="button" className="button" disabled={busy} onClick={() => confirmation?.run()}>
          {busy ? copy.working : confirmation?.confirm}
        </button>
        <button
          ref={cancel}
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={onClose}
        >
          {copy.cancel}
        </button>
      </div>
    </dialog>
  );
}
