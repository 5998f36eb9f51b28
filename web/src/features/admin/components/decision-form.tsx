import type { KycStatus } from '#contracts/kyc.ts';
import { Field } from '#web/components/field.tsx';
import { adminCopy } from '#web/content/admin.ts';

const copy = adminCopy.decision;

export type Decision = 'approved' | 'rejected';

/** The decisions that change this status (approving an approved user would record nothing). */
export function decisionsFor(status: KycStatus): Decision[] {
  if (status === 'approved') return ['rejected'];
  if (status === 'rejected') return ['approved'];
  return ['approved', 'rejected'];
}

interface DecisionFormProps {
  /** Who the decision is about (organization, else the person), for the form's name. */
  subject: string;
  status: KycStatus;
  reason: string;
  error: string | undefined;
  /** The decision being sent for this item, if any. */
  sending: Decision | null;
  /** Another decision is being sent: one at a time. */
  disabled: boolean;
  onReasonChange: (reason: string) => void;
  onDecide: (decision: Decision) => void;
  reasonRef: (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => void;
}

// The reason is validated with the contract the handler enforces (by the screen, before sending),
// and its messages appear on the field.
export function DecisionForm(props: DecisionFormProps) {
  const decisions = decisionsFor(props.status);
  return (
    <form
      className="decision-form"
      aria-label={copy.label(props.subject)}
      noValidate
      onSubmit={(event) => event.preventDefault()}
    >
      <Field
        label={copy.reason}
        name="reason"
        value={props.reason}
        error={props.error}
        hint={copy.reasonHint}
        required
        multiline
        onChange={props.onReasonChange}
        ref={props.reasonRef}
      />
      <div className="decision-form__actions">
        {decisions.map((decision) => {
          const busy = props.sending === decision;
          const label =
            decision === 'approved'
              ? busy
                ? copy.approving
                : copy.approve
              : busy
                ? copy.rejecting
                : copy.reject;
          return (
            <button
              key={decision}
              type="button"
              className={
                decision === 'approved' ? 'button' : 'button button--secondary decision-form__reject'
              }
              disabled={props.disabled || props.sending !== null}
              aria-busy={busy || undefined}
              onClick={() => props.onDecide(decision)}
            >
              {label}
            </button>
          );
        })}
      </div>
    </form>
  );
}
