import { type FormEvent, useId, useRef, useState } from 'react';
import { waitlistRequest } from '#contracts/waitlist.ts';
import { waitlist } from '../../../content/waitlist.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { joinWaitlist } from '../api/join-waitlist.ts';

type Outcome = { kind: 'idle' } | { kind: 'success' } | { kind: 'failure' };

export function WaitlistForm() {
  const id = useId();
  const emailId = `${id}-email`;
  const errorId = `${id}-email-error`;
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setOutcome({ kind: 'idle' });

    const parsed = waitlistRequest.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      input.current?.focus();
      return;
    }

    setFieldError(undefined);
    setSubmitting(true);
    try {
      await joinWaitlist(parsed.data);
      setEmail('');
      setOutcome({ kind: 'success' });
    } catch (error) {
      const message = error instanceof ApiError ? error.fieldError('email') : undefined;
      if (message) {
        setFieldError(message);
        input.current?.focus();
      } else {
        setOutcome({ kind: 'failure' });
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form className="waitlist-form" noValidate onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={emailId}>{waitlist.emailLabel}</label>
        <input
          ref={input}
          id={emailId}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
        />
        {fieldError && (
          <p id={errorId} className="field__error">
            {fieldError}
          </p>
        )}
      </div>
      <button type="submit" className="button" disabled={submitting}>
        {submitting ? waitlist.submitting : waitlist.submit}
      </button>
      {/* Live regions exist from the start so screen readers announce what appears in them. */}
      <p role="status" className="form-status form-status--success">
        {outcome.kind === 'success' ? waitlist.success : null}
      </p>
      <p role="alert" className="form-status form-status--failure">
        {outcome.kind === 'failure' ? waitlist.failure : null}
      </p>
    </form>
  );
}
