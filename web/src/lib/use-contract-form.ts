import { type FormEvent, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { ApiError } from './api-client.ts';
import { useHydrated } from './hydrated.ts';

// The one way a form works: validate with the contract schema the handler enforces (so the person
// sees the API's exact messages without a round trip), post, and put the API's own field errors
// next to their fields. Text fields, textareas, selects and checkboxes; a wizard validates one
// step's fields at a time against the same schema. Usage: web/src/app/README.md, "Forms".

/** A text field, textarea or select holds a string; a checkbox a boolean. */
export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;
export type FieldName<V> = Extract<keyof V, string>;
export type FieldErrors<V> = Partial<Record<FieldName<V>, string>>;
/** `{ agree: false, name: '' }` holds a boolean and a string, not the literals it starts with. */
export type Widen<V> = { [K in keyof V]: V[K] extends boolean ? boolean : string };

type ControlElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface ContractFormOptions<V extends FormValues, Out, Result> {
  /**
   * Every field with its empty value, in the order the form shows them ('' for a text field,
   * textarea or select, false for a checkbox). The first invalid field in this order gets focus.
   */
  fields: V;
  schema: z.ZodMiniType<Out>;
  /** Turns the typed values into the request body (e.g. drops empty optional fields). */
  toInput?: (values: Widen<V>) => unknown;
  submit: (data: Out) => Promise<Result>;
  onSuccess: (result: Result) => void;
  /** The API failed without naming a field of this form (network, 5xx): the person should try again. */
  onFailure: (error: unknown) => void;
  /**
   * Field errors were just shown, from the schema or from the API (then `error` is its answer).
   * A wizard uses it to move to the step of the first field in error.
   */
  onInvalid?: (errors: FieldErrors<V>, error?: ApiError) => void;
}

/** What a field component needs from the form: spread `form.control('name')` into it. */
export interface FieldControl<T extends FormValue> {
  name: string;
  value: T;
  error: string | undefined;
  /** True while the form is submitting: nothing changes under a request in flight. */
  disabled: boolean;
  onChange: (value: T) => void;
  ref: (element: ControlElement | null) => void;
}

export function useContractForm<V extends FormValues, Out, Result>(
  options: ContractFormOptions<V, Out, Result>,
) {
  const initial = options.fields as Widen<V>;
  const order = Object.keys(initial) as FieldName<V>[];
  const [values, setValues] = useState<Widen<V>>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [submitting, setSubmitting] = useState(false);
  const hydrated = useHydrated();
  const elements = useRef(new Map<FieldName<V>, ControlElement>());
  // A second click before React re-renders must not post twice.
  const busy = useRef(false);
  // Focus waits for the render that shows the errors: until then the field may still be disabled
  // (submitting) or on a step that is not shown yet.
  const focusAfterRender = useRef<FieldName<V> | null>(null);

  useEffect(() => {
    const field = focusAfterRender.current;
    if (!field) return;
    focusAfterRender.current = null;
    elements.current.get(field)?.focus();
  });

  // A person may type into the prerendered form before React hydrates it (the page's JS loads
  // after `load`); keep what they typed (or ticked) instead of the empty initial values.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const typed: Partial<Widen<V>> = {};
    for (const [field, element] of elements.current) {
      const value =
        element instanceof HTMLInputElement && element.type === 'checkbox' ? element.checked : element.value;
      if (value !== initial[field]) typed[field] = value as Widen<V>[typeof field];
    }
    if (Object.keys(typed).length > 0) setValues((current) => ({ ...current, ...typed }));
  }, []);

  const isField = (name: unknown): name is FieldName<V> => order.includes(name as FieldName<V>);

  /** The schema's first message for each field (of `only`, when given), on the current values. */
  function check(only?: readonly FieldName<V>[]): FieldErrors<V> {
    const parsed = options.schema.safeParse(options.toInput ? options.toInput(values) : values);
    const found: FieldErrors<V> = {};
    if (parsed.success) return found;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (isField(field) && (!only || only.includes(field)) && !found[field]) found[field] = issue.message;
    }
    return found;
  }

  function firstOf(found: FieldErrors<V>): FieldName<V> | undefined {
    return order.find((field) => found[field]);
  }

  function show(found: FieldErrors<V>, error?: ApiError) {
    focusAfterRender.current = firstOf(found) ?? null;
    options.onInvalid?.(found, error);
  }

  /**
   * Validates only these fields (a wizard's step; all when omitted) and shows their errors; the
   * other fields' errors stay as they are. True when the fields are valid.
   */
  function validate(only?: readonly FieldName<V>[]): boolean {
    const found = check(only);
    setErrors((current) => {
      const next = { ...current };
      for (const field of only ?? order) delete next[field];
      return { ...next, ...found };
    });
    if (!firstOf(found)) return true;
    show(found);
    return false;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;

    const parsed = options.schema.safeParse(options.toInput ? options.toInput(values) : values);
    if (!parsed.success) {
      const found = check();
      setErrors(found);
      show(found);
      return;
    }

    busy.current = true;
    setErrors({});
    setSubmitting(true);
    try {
      const result = await options.submit(parsed.data);
      setValues(initial);
      options.onSuccess(result);
    } catch (error) {
      const found: FieldErrors<V> = {};
      if (error instanceof ApiError) {
        for (const fieldError of error.errors) {
          if (isField(fieldError.field) && !found[fieldError.field])
            found[fieldError.field] = fieldError.message;
        }
      }
      if (firstOf(found)) {
        setErrors(found);
        show(found, error as ApiError);
      } else {
        options.onFailure(error);
      }
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }

  /**
   * Fills the fields that still hold their empty value (saved progress, say): what the person
   * typed before hydration wins. Values of the wrong kind for a field are ignored.
   */
  function restore(saved: Partial<Record<FieldName<V>, unknown>>) {
    setValues((current) => {
      const next = { ...current };
      for (const field of order) {
        const value = saved[field];
        if (typeof value === typeof initial[field] && current[field] === initial[field])
          next[field] = value as Widen<V>[typeof field];
      }
      return next;
    });
  }

  /** The props a field component needs: value, change handler, error, busy state, and a ref for focus. */
  function control<K extends FieldName<V>>(field: K): FieldControl<Widen<V>[K]> {
    return {
      name: field,
      value: values[field],
      error: errors[field],
      disabled: submitting,
      onChange: (value) => setValues((current) => ({ ...current, [field]: value })),
      ref: (element) => {
        if (element) elements.current.set(field, element);
        else elements.current.delete(field);
      },
    };
  }

  return { values, errors, submitting, hydrated, onSubmit, validate, check, restore, control };
}

export type ContractForm<V extends FormValues> = ReturnType<typeof useContractForm<V, unknown, unknown>>;
