import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type OwnDeletionRequestState, ownDataDeletionRequest } from '#contracts/data-deletion.ts';
import { DeletionDetailsField } from '#web/components/deletion-details-field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { accountCopy } from '#web/content/account.ts';
import { requestOwnDataDeletion } from '#web/features/account/api/request-own-data-deletion.ts';
import { PendingDeletionRequest } from '#web/features/account/components/pending-deletion-request.tsx';
import { useSession } from '#web/lib/session.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

const copy = accountCopy.deletion;

/** Thrown into the form kit when the person steps back at the confirmation: not a failure. */
const cancelled = Symbol('cancelled');

// A data-deletion request for the signed-in person's own address. The address is the account's,
// never typed or sent: the API takes it from the access token's account, which also confirms it. The form kit validates
// against the same contract as the API; its submit waits for an explicit confirmation before
// anything is sent, so one stray click never files an erasure.
//
// A pending request (GET /api/me's `deletionRequest`, ADR 0076) replaces the form: its dates and
// the way to cancel it, so the page shows it after a reload and never offers a second request.
export function DeletionRequest({ email }: { email: string }) {
  const toast = useToast();
  const { api, me, refreshMe } = useSession();
  const headingId = useId();
  const [pending, setPending] = useState<OwnDeletionRequestState | null>(me.deletionRequest);
  const [accepted, setAccepted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const decide = useRef<((send: boolean) => void) | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const receiptHeading = useRef<HTMLHeadingElement>(null);

  const form = useContractForm({
    fields: { details: '' },
    schema: ownDataDeletionRequest,
    toInput: (values) => (values.details.trim() ? { details: values.details } : {}),
    submit: async (request) => {
      setAccepted(false);
      const send = await new Promise<boolean>((resolve) => {
        decide.current = resolve;
        setConfirming(true);
      });
      decide.current = null;
      setConfirming(false);
      if (!send) throw cancelled;
      return requestOwnDataDeletion(api, request);
    },
    onSuccess: (answer) => {
      // The answer names the request (the pending one, if there was one); the session's account
      // is read again so the rest of the app knows it too.
      setPending({
        requestId: answer.requestId,
        dueBy: answer.dueBy,
        status: 'received',
        requestedAt: new Date().toISOString(),
        cancellable: true,
      });
      setAccepted(true);
      refreshMe()
        .then((fresh) => {
          if (fresh.deletionRequest?.requestId === answer.requestId) setPending(fresh.deletionRequest);
        })
        .catch(() => undefined);
    },
    onFailure: (error) => {
      if (error !== cancelled) toast.error(copy.failed, { title: copy.failedTitle });
    },
  });
  const step = confirming ? 'confirm' : form.submitting ? 'sending' : 'edit';

  // Focus follows the step: the question when it is asked; afterwards the receipt, the field the
  // API refused, or the button that starts again.
  const previous = useRef(step);
  useEffect(() => {
    const before = previous.current;
    previous.current = step;
    if (step === 'confirm') confirmHeading.current?.focus();
    if (step !== 'edit' || before === 'edit') return;
    if (pending) receiptHeading.current?.focus();
    else if (form.errors.details) {
      const field = formRef.current?.elements.namedItem('details');
      if (field instanceof HTMLElement) field.focus();
    } else reviewButton.current?.focus();
  }, [step, pending, form.errors.details]);

  function gone(cancelled: boolean) {
    setPending(null);
    setAccepted(false);
    refreshMe().catch(() => undefined);
    if (cancelled) setTimeout(() => reviewButton.current?.focus(), 0);
  }

  return (
    <section aria-labelledby={headingId} className="account-section">
      <h2 id={headingId}>{copy.heading}</h2>
      <p className="account-section__intro">
        {copy.intro} <Link to={paths.dataDeletion.getHref()}>{copy.policyLink}</Link>
      </p>
      {pending ? (
        <PendingDeletionRequest
          request={pending}
          email={email}
          justFiled={accepted}
          headingRef={receiptHeading}
          onGone={gone}
        />
      ) : (
        <form ref={formRef} className="form deletion-form" noValidate onSubmit={form.onSubmit}>
          <dl className="app-facts">
            <dt>{copy.emailLabel}</dt>
            <dd>{email}</dd>
          </dl>
          <p className="field__hint">{copy.emailNote}</p>
          <fieldset className="deletion-form__fields" disabled={step !== 'edit'}>
            <DeletionDetailsField copy={copy} {...form.control('details')} />
            {step === 'edit' && (
              <button ref={reviewButton} type="submit" className="button">
                {copy.review}
              </button>
            )}
          </fieldset>
          {step !== 'edit' && (
            <div className="deletion-confirm">
              <h3 ref={confirmHeading} tabIndex={-1}>
                {copy.confirmHeading}
              </h3>
              <p>{copy.confirmBody(email)}</p>
              <div className="app-actions">
                <button
                  type="button"
                  className="button"
                  disabled={step !== 'confirm'}
                  onClick={() => decide.current?.(true)}
                >
                  {step === 'sending' ? copy.sending : copy.send}
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={step !== 'confirm'}
                  onClick={() => decide.current?.(false)}
                >
                  {copy.cancel}
                </button>
              </div>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
