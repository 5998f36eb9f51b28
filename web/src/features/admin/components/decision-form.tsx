import type { KycStatus } from '#contracts/kyc.ts';
import { reviewerReasonCodes } from '#contracts/kyc-reasons.ts';
import { Field, SelectField } from '#web/components/field.tsx';
import { adminCopy } from '#web/content/admin.ts';
import { reasonLabel } from '#web/content/decision-reasons.ts';

const copy = adminCopy.decision;

export type Decision = 'approved' | 'rejected';

/** The decisions that change this status (approving an approved user would record nothing). */
export function decisionsFor(status: KycStatus): Decision[] {
  if (status === 'approved') return ['rejected'];
  if (status === 'rejected') return ['approved'];
  return ['approved', 'rejected'];
}

export interface DecisionDraft {
  reasonCode: string;
  reason: string;
}

export type DecisionErrors = Partial<Record<keyof DecisionDraft, string>>;

interface DecisionFormProps {
  /** Who the decision is about (organization, else the person), for the form's name. */
  subject: string;
  status: KycStatus;
  draft: DecisionDraft;
  errors: DecisionErrors;
  /** The decision being sent for this item, if any. */
  sending: Decision | null;
  /** Another decision is being sent: one at a time. */
  disabled: boolean;
  onDraftChange: (draft: DecisionDraft) => void;
  onDecide: (decision: Decision) => void;
  fieldRef: (
    field: keyof DecisionDraft,
    element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null,
  ) => void;
}

// The reason code (what the user is told) and the internal note are validated with the contract the
// handler enforces (by the screen, before sending), and its messages appear on the fields.
export function DecisionForm(props: DecisionFormProps) {
  const decisions = decisionsFor(props.status);
  const options = decisions.flatMap((decision) =>
    reviewerReasonCodes(decision).map((code) => ({
      value: code,
      label: copy.reasonCodeOption(decision, reasonLabel(code)),
    })),
  );
  return (
    <form
      className="decision-form"
      aria-label={copy.label(props.subject)}
      noValidate
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        label={copy.reasonCode}
        name="reasonCode"
        placeholder={copy.reasonCodePlaceholder}
        options={options}
        value={props.draft.reasonCode}
        error={props.errors.reasonCode}
        hint={copy.reasonCodeHint}
        required
        onChange={(reasonCode) => props.onDraftChange({ ...props.draft, reasonCode })}
        ref={(element) => props.fieldRef('reasonCode', element)}
      />
      <Field
        label={copy.reason}
        name="reason"
        value={props.draft.reason}
        error={props.errors.reason}
        hint={copy.reasonHint}
        multiline
        onChange={(reason) => props.onDraftChange({ ...props.draft, reason })}
        ref={(element) => props.fieldRef('reason', element)}
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

interface NewAttemptFormProps {
  subject: string;
  reason: string;
  error: string | undefined;
  sending: boolean;
  disabled: boolean;
  onReasonChange: (reason: string) => void;
  onAllow: () => void;
  reasonRef: (element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null) => void;
}

/** A reviewer allows a rejected user a new attempt, with a reason kept in the history. */
export function NewAttemptForm(props: NewAttemptFormProps) {
  const text = adminCopy.newAttempt;
  return (
    <form
      className="decision-form"
      aria-label={text.label(props.subject)}
      noValidate
      onSubmit={(event) => event.preventDefault()}
    >
      <Field
        label={text.reason}
        name="newAttemptReason"
        value={props.reason}
        error={props.error}
        hint={text.reasonHint}
        required
        multiline
        onChange={props.onReasonChange}
        ref={props.reasonRef}
      />
      <div className="decision-form__actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={props.disabled || props.sending}
          aria-busy={props.sending || undefined}
          onClick={props.onAllow}
        >
          {props.sending ? text.allowing : text.allow}
        </button>
      </div>
    </form>
  );
}
