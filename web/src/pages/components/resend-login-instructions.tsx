import { useState } from 'react';
import type { RegistrationRequest } from '#contracts/registration.ts';
import { checkYourEmail as copy } from '#web/content/check-your-email.ts';

/** As many resends as the per-recipient budget of the emails a registration sends (ADR 0033, 0086). */
export const maxResends = 3;

interface ResendProps {
  /** The registration the wizard sent: "Resend" sends it again, unchanged. */
  registration: RegistrationRequest;
  /** Resends already made from this page (kept in its history entry, so a reload keeps them). */
  resent: number;
  onResent: (count: number) => void;
}

// "Resend" registers the same organization again (ADR 0086): the server answers every accepted
// registration alike, so nothing here can tell whether the address has an account. Its work then
// emails the login instructions again while their password link is unused, or "you already have an
// account", both within the per-recipient limit. The page offers as many resends as that limit.
export function ResendLoginInstructions({ registration, resent, onResent }: ResendProps) {
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const spent = resent >= maxResends;

  async function resend() {
    setSending(true);
    setFailed(false);
    try {
      // The wizard's call, made here so that /register shares no chunk with this page. The API
      // client and the answer's schema (zod) load with the first resend: a page without a form
      // loads no schema library until it sends something (ADR 0044).
      const [{ api }, { successResponse }] = await Promise.all([
        import('#web/lib/public-api.ts'),
        import('#contracts/common.ts'),
      ]);
      await api.call('CreateRegistration', registration, { response: successResponse });
      onResent(resent + 1);
    } catch {
      setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="check-email__resend">
      <p>{copy.resend.prompt}</p>
      {!spent && (
        <button type="button" className="button button--secondary" disabled={sending} onClick={resend}>
          {sending ? copy.resend.sending : copy.resend.button}
        </button>
      )}
      <p role="status">
        {resent > 0 && (spent ? copy.resend.spent : copy.resend.sent(registration.responsibleEmail))}
      </p>
      {failed && (
        <p role="alert" className="field__error">
          {copy.resend.failed}
        </p>
      )}
    </div>
  );
}
