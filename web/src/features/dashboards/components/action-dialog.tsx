import { useId, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { useModalDialog } from '#web/lib/use-modal-dialog.ts';

const copy = dashboardsCopy.segment.dialog;

// What a quick action answers while its capability is not switched on for the organization: an
// honest modal dialog instead of a dead button. Native <dialog> with showModal(): the top layer, an
// inert page behind it and Escape to close, at no bundle cost. `action` null closes it; the
// dialog's own close (Escape, Close) reports through `onClose`, which returns focus to the opener.
export function ActionDialog({ action, onClose }: { action: string | null; onClose: () => void }) {
  // Close is the one control that does something here; the browser would otherwise focus the link.
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog(action !== null, closeButton);
  const titleId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={dialog}
      className="action-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={onClose}
    >
      <h2 id={titleId} className="action-dialog__title">
        {action}
      </h2>
      <p id={bodyId}>{copy.body}</p>
      <p>
        {copy.detail} <Link to={paths.contact.getHref()}>{copy.contact}</Link>.
      </p>
      <div className="app-actions">
        <button ref={closeButton} type="button" className="button" onClick={() => dialog.current?.close()}>
          {copy.close}
        </button>
      </div>
    </dialog>
  );
}
