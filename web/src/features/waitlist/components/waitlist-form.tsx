import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useToast } from '#web/components/toast.tsx';
import { waitlist } from '#web/content/waitlist.ts';
import { useHydrated } from '#web/lib/hydrated.ts';

// The schema and API client arrive on first focus (or submit), after the page is interactive.
const loadWaitlistApi = () => import('#web/features/waitlist/api/submit-waitlist.ts');

export function WaitlistForm() {
  const id = useId();
  const emailId = `${id}-email`;
  const errorId = `${id}-email-error`;
  const input = useRef<HTMLInputElement>(null);
  const busy = useRef(false);
  const toast = useToast();
  const hydrated = useHydrated();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);

  // A visitor may type before React hydrates the prerendered form; keep what they typed.
  useEffect(() => {
    const typed = input.current?.value;
    if (typed) setEmail(typed);
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    try {
      const { joinWaitlist, validateEmail } = await loadWaitlistApi();
      const invalid = validateEmail(email);
      if (invalid) {
        setFieldError(invalid);
        input.current?.focus();
        return;
      }
      setFieldError(undefined);
      setSubmitting(true);
      const outcome = await joinWaitlist(email);
      if (outcome.kind === 'joined') {
        setEmail('');
        toast.success(waitlist.success);
      } else if (outcome.kind === 'invalid') {
        setFieldError(outcome.message);
        input.current?.focus();
      } else {
        toast.error(waitlist.failure);
      }
    } catch {
      // The module itself could not load (offline, a new deploy removed the old chunk).
      toast.error(waitlist.failure);
    } finally {
      busy.current = false;
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
          onFocus={() => void loadWaitlistApi()}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
        />
        {fieldError && (
          <p id={errorId} className="field__error">
            {fieldError}
          </p>
        )}
      </div>
      <button type="submit" className="button" disabled={!hydrated || submitting}>
        {submitting ? waitlist.submitting : waitlist.submit}
      </button>
    </form>
  );
}
