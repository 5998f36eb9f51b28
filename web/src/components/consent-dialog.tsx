import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { consentRequest } from '#contracts/consent.ts';
import type { MeResponse } from '#contracts/me.ts';
import { useToast } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { shownConsentDocuments } from '#web/content/consent-documents.ts';
import { kycCopy } from '#web/content/kyc.ts';
import { consentFailure, recordConsent } from '#web/lib/consent-api.ts';
import { useSession } from '#web/lib/session.ts';

const copy = kycCopy.consent;
/** The exact document the ledger records: its statements are shown word for word, with its version. */
const consentDocument = shownConsentDocuments.identity_verification;

interface ConsentDialogProps {
  open: boolean;
  /** The dialog closed without a recorded consent (Escape or Cancel). */
  onClose: () => void;
  /** The consent was recorded; `me` is the server's fresh view, when it could be loaded. */
  onRecorded: (me: MeResponse | undefined) => void;
}

// A native modal <dialog> (showModal): the browser gives the top layer, an inert background, a
// focus trap and Escape (the `cancel` event), and returns focus to the opener on close. While the
// consent is being saved it cannot be closed: `closedby="none"`, a prevented `cancel`, and a
// re-open should a browser close it anyway (Chrome lets a second Escape through a prevented cancel).
//
// On a small screen the statements scroll inside the dialog's body while its two buttons stay in
// view below it (ADR 0087).
//
// The submit button is `aria-disabled`, not `disabled`, until every statement is ticked: it stays
// focusable and, pressed anyway, says what is missing instead of doing nothing.

export function ConsentDialog({ open, onClose, onRecorded }: ConsentDialogProps) {
  const { api, refreshMe } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const checkboxes = useRef(new Map<string, HTMLInputElement>());
  const saving = useRef(false);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [incomplete, setIncomplete] = useState(false);
  const [failure, setFailure] = useState<string>();
  const id = useId();
  const titleId = `${id}-title`;
  const introId = `${id}-intro`;
  const incompleteId = `${id}-incomplete`;

  const allChecked = consentDocument.statements.every((statement) => checked[statement.id] === true);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setChecked({});
      setIncomplete(false);
      setFailure(undefined);
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  function handleCancel(event: { preventDefault(): void }) {
    if (saving.current) event.preventDefault();
  }

  function handleClose() {
    if (saving.current) {
      dialog.current?.showModal();
      return;
    }
    if (opener.current?.isConnected) opener.current.focus();
    onClose();
  }

  function requestClose() {
    if (!saving.current) dialog.current?.close();
  }

  function setStatement(statementId: string, value: boolean) {
    setChecked((current) => ({ ...current, [statementId]: value }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving.current) return;

    const parsed = consentRequest.safeParse({
      ...Object.fromEntries(
        consentDocument.statements.map((statement) => [statement.id, checked[statement.id] === true]),
      ),
      consent_type: consentDocument.purpose,
      locale: consentDocument.locale,
      document_version: consentDocument.version,
    });
    if (!parsed.success) {
      setIncomplete(true);
      const missing = consentDocument.statements.find((statement) => checked[statement.id] !== true);
      if (missing) checkboxes.current.get(missing.id)?.focus();
      return;
    }

    saving.current = true;
    setBusy(true);
    setIncomplete(false);
    setFailure(undefined);
    try {
      await recordConsent(api, parsed.data);
    } catch (error) {
      saving.current = false;
      setBusy(false);
      const kind = consentFailure(error);
      if (kind === 'session-end') return;
      if (kind === 'email-not-verified') {
        // The server says the address is unverified: bring `me` in step so the shell lets the user
        // through to Verify Your Email instead of sending them back here.
        toast.info(copy.emailNotVerified);
        await refreshMe({ freshToken: true }).catch(() => undefined);
        dialog.current?.close();
        navigate(paths.verificationRequired.getHref());
        return;
      }
      const message = kind === 'refused' ? copy.storeFailed : copy.failed;
      setFailure(message);
      toast.error(message);
      return;
    }

    toast.success(copy.recorded);
    // The ledger has the record; `me.consentRecorded` follows, so the guards let the user on.
    const me = await refreshMe().catch(() => undefined);
    saving.current = false;
    setBusy(false);
    dialog.current?.close();
    onRecorded(me);
  }

  return (
    <dialog
      ref={dialog}
      className="consent-dialog"
      aria-labelledby={titleId}
      aria-describedby={introId}
      closedby={busy ? 'none' : 'closerequest'}
      onCancel={handleCancel}
      onClose={handleClose}
    >
      <form noValidate onSubmit={submit} aria-busy={busy} className="consent-dialog__form">
        <div className="consent-dialog__body">
          <h2 id={titleId} className="consent-dialog__title">
            {consentDocument.title}
          </h2>
          <p className="consent-dialog__version">
            {copy.versionLabel} {consentDocument.version}
          </p>
          <p id={introId}>{copy.intro}</p>
          <fieldset className="consent-dialog__statements" disabled={busy}>
            <legend className="visually-hidden">{consentDocument.title}</legend>
            {consentDocument.statements.map((statement) => {
              const inputId = `${id}-${statement.id}`;
              const invalid = incomplete && checked[statement.id] !== true;
              return (
                <div className="consent-option" key={statement.id}>
                  <input
                    ref={(element) => {
                      if (element) checkboxes.current.set(statement.id, element);
                      else checkboxes.current.delete(statement.id);
                    }}
                    id={inputId}
                    type="checkbox"
                    name={statement.id}
                    checked={checked[statement.id] === true}
                    onChange={(change) => setStatement(statement.id, change.target.checked)}
                    aria-required="true"
                    aria-invalid={invalid ? true : undefined}
                    aria-describedby={invalid ? incompleteId : undefined}
                  />
                  <label htmlFor={inputId}>{statement.text}</label>
                </div>
              );
            })}
          </fieldset>
          <p className="consent-dialog__policy">
            <Link to={paths.privacyPolicy.getHref()} target="_blank" rel="noopener">
              {copy.privacyPolicyLink}
            </Link>
          </p>
          {incomplete && !allChecked && (
            <p id={incompleteId} role="alert" className="field__error">
              {copy.incomplete}
            </p>
          )}
          {failure && (
            <p role="alert" className="field__error">
              {failure}
            </p>
          )}
        </div>
        <div className="app-actions consent-dialog__actions">
          <button type="submit" className="button" aria-disabled={!allChecked || busy}>
            {busy ? copy.saving : copy.submit}
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={busy}
            onClick={requestClose}
          >
            {copy.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
