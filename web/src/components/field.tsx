import { useId } from 'react';

// A labelled text field whose error (and hint) the control names with aria-describedby.

interface FieldProps {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => void;
  /** Shown after the label, e.g. "(optional)". */
  labelNote?: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  type?: 'text' | 'email';
  autoComplete?: string;
}

export function Field(props: FieldProps) {
  const id = useId();
  const controlId = `${id}-control`;
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const shared = {
    id: controlId,
    name: props.name,
    value: props.value,
    required: props.required,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
  } as const;

  return (
    <div className={props.multiline ? 'field field--wide' : 'field'}>
      <label htmlFor={controlId}>
        {props.label}
        {props.labelNote && <span className="field__note"> {props.labelNote}</span>}
      </label>
      {props.hint && (
        <p id={hintId} className="field__hint">
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
          inputMode={props.type === 'email' ? 'email' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      {props.error && (
        <p id={errorId} className="field__error">
          {props.error}
        </p>
      )}
    </div>
  );
}
