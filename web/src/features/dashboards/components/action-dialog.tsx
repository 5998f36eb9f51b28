import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type ServiceAction, type ServiceRequestView, serviceActions } from '#contracts/service-request.ts';
import { paths } from '#web/config/paths.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { requestService } from '#web/features/dashboards/api/service-requests.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';
import { useModalDialog } from '#web/lib/use-modal-dialog.ts';
import { RequestState } from './request-state.tsx';

const copy = dashboardsCopy.segment.dialog;

// What a quick action answers (ADR 0088): a service request to operations, in a native modal
// <dialog> (showModal(): the top layer, an inert page behind it and Escape to close). The
// organization's open request for the action, when there is one, is shown with its state instead
// of a second one; after sending, the new request's state is announced and focus goes to Close.
// `action` null closes it; its own close (Escape, Close) reports through `onClose`, which returns
// focus to the opener.
export function ActionDialog({
  action,
  request,
  organizationId,
  onSent,
  onClose,
}: {
  action: ServiceAction | null;
  /** The organization's request for this action, if any. */
  request: ServiceRequestView | undefined;
  /** Null: an account without an organization, which cannot file a request. */
  organizationId: string | null;
  onSent: (request: ServiceRequestView) => void;
  onClose: () => void;
}) {
  const { api } = useSession();
  const closeButton = useRef<HTMLButtonElement>(null);
  const sendButton = useRef<HTMLButtonElement>(null);
  const canSend = organizationId !== null && request === undefined;
  const dialog = useModalDialog(action !== null, canSend ? sendButton : closeButton);
  const titleId = useId();
  const bodyId = useId();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean } | null>(null);
  // Sending removes the Send button: focus moves to Close once the request's state is on screen.
  const focusClose = useRef(false);
  useEffect(() => {
    if (!focusClose.current) return;
    focusClose.current = false;
    closeButton.current?.focus();
  });

  async function send() {
    if (!action || !organizationId) return;
    setSending(true);
    setOutcome(null);
    try {
      const answer = await requestService(api, organizationId, action);
      setOutcome({ text: answer.created ? copy.sent : copy.alreadyOpen, failed: false });
      focusClose.current = true;
      onSent(answer.request);
    } catch (error) {
      const detail = error instanceof ApiError && error.status < 500 ? error.detail : undefined;
      setOutcome({ text: detail ?? copy.failed, failed: true });
    } finally {
      setSending(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      className="action-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={() => {
        setOutcome(null);
        onClose();
      }}
    >
      <h2 id={titleId} className="action-dialog__title">
        {action && serviceActions[action].title}
      </h2>
      {organizationId === null ? (
        <p id={bodyId}>
          {copy.noOrganization} <Link to={paths.contact.getHref()}>{copy.contact}</Link>.
        </p>
      ) : (
        <p id={bodyId}>{copy.body}</p>
      )}
      <div role="status">
        {outcome && !outcome.failed && <p>{outcome.text}</p>}
        {request && <RequestState request={request} />}
      </div>
      {outcome?.failed && (
        <p role="alert" className="action-dialog__error">
          {outcome.text}
        </p>
      )}
      <div className="app-actions">
        {canSend && (
          <button ref={sendButton} type="button" className="button" disabled={sending} onClick={send}>
            {sending ? copy.sending : copy.send}
          </button>
        )}
        <button
          ref={closeButton}
          type="button"
          className={canSend ? 'button button--secondary' : 'button'}
          onClick={() => dialog.current?.close()}
        >
          {copy.close}
        </button>
      </div>
    </dialog>
  );
}
