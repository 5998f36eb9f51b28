import { type ReactNode, useId } from 'react';

// Labelled form controls whose error (and hint) the control names with aria-describedby. Each takes
// what `useContractForm().control(name)` returns, spread: `<Field label="Name" {...form.control('name')} />`.

type ControlElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface ControlProps<T> {
  name: string;
  value: T;
  error: string | undefined;
  onChange: (value: T) => void;
  ref: (element: ControlElement | null) => void;
  /** While the form submits (the form kit sets it). */
  disabled?: boolean;
  required?: boolean;
}

/** What `useContractForm().control(name)` returns for a text field. */
export type TextControl = ControlProps<string>;

/** The ids that tie a control to its hint and error. */
function useDescribedBy(hint: unknown, error: string | undefined) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return {
    controlId: `${id}-control`,
    hintId,
    errorId,
    describedBy: [errorId, hintId].filter(Boolean).join(' ') || undefined,
  };
}

function FieldError({ id, error }: { id: string | undefined; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="field__error">
      {error}
    </p>
  );
}

interface FieldProps extends ControlProps<string> {
  label: string;
  /** Shown after the label, e.g. "(optional)". */
  labelNote?: string;
  hint?: string;
  multiline?: boolean;
  type?: 'text' | 'email' | 'tel' | 'url';
  autoComplete?: string;
}

const inputModes = { text: undefined, email: 'email', tel: 'tel', url: 'url' } as const;

/** A text field, or a textarea with `multiline`. */
export function Field(props: FieldProps) {
  const ids = useDescribedBy(props.hint, props.error);
  const shared = {
    id: ids.controlId,
    name: props.name,
    value: props.value,
    required: props.required,
    disabled: props.disabled,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': ids.describedBy,
  } as const;

  return (
    <div className={props.multiline ? 'field field--wide' : 'field'}>
      <label htmlFor={ids.controlId}>
        {props.label}
        {props.labelNote && <span className="field__note"> {props.labelNote}</span>}
      </label>
      {props.hint && (
        <p id={ids.hintId} className="field__hint">
          {props.hint}
        </p>
      )}
      {props.multiline ? (
        <textarea
          {...shared}
          ref={props.ref}
          rows={6}
          onChange={(event) => props.onChange(event.target.value)}
        />
      ) : (
        <input
          {...shared}
          ref={props.ref}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          inputMode={inputModes[props.type ?? 'text']}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      <FieldError id={ids.errorId} error={props.error} />
    </div>
  );
}

interface SelectFieldProps extends ControlProps<string> {
  label: string;
  /** The first option, with the empty value: what the schema refuses until a real choice is made. */
  placeholder: string;
  options: readonly { value: string; label: string }[];
  hint?: string;
  autoComplete?: string;
}

export function SelectField(props: SelectFieldProps) {
  const ids = useDescribedBy(props.hint, props.error);
  return (
    <div className="field">
      <label htmlFor={ids.controlId}>{props.label}</label>
      {props.hint && (
        <p id={ids.hintId} className="field__hint">
          {props.hint}
        </p>
      )}
      <select
        id={ids.controlId}
        ref={props.ref}
        name={props.name}
        value={props.value}
        required={props.required}
        disabled={props.disabled}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={ids.describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {/* Not selectable again once a choice is made, but shown until then. */}
        <option value="" disabled>
          {props.placeholder}
        </option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={ids.errorId} error={props.error} />
    </div>
  );
}

interface CheckboxFieldProps extends ControlProps<boolean> {
  /** The statement the person ticks; it is the checkbox's accessible name. */
  label: ReactNode;
  /** Under the label (it may hold a link: links inside a label would toggle nothing but confuse). */
  hint?: ReactNode;
}

export function CheckboxField(props: CheckboxFieldProps) {
  const ids = useDescribedBy(props.hint, props.error);
  return (
    <div className="field field--checkbox">
      <input
        id={ids.controlId}
        ref={props.ref}
        type="checkbox"
        name={props.name}
        checked={props.value}
        required={props.required}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={ids.describedBy}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <label htmlFor={ids.controlId}>{props.label}</label>
      {props.hint && (
        <div id={ids.hintId} className="field__hint">
          {props.hint}
        </div>
      )}
      <FieldError id={ids.errorId} error={props.error} />
    </div>
  );
}
