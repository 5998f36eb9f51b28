import { type FormEvent, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { ApiError } from './api-client.ts';
import { useHydrated } from './hydrated.ts';

// The one way a public form works: validate with the contract schema the handler enforces (so the
// visitor sees the API's exact messages without a round trip), post, and put the API's own field
// errors next to their fields. Shared by the contact, investor and data-deletion forms.

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface ContractFormOptions<F extends string, Out, Result> {
  fields: readonly F[];
  schema: z.ZodMiniType<Out>;
  /** Turns the typed values into the request body (e.g. drops empty optional fields). */
  toInput?: (values: Record<F, string>) => unknown;
  submit: (data: Out) => Promise<Result>;
  onSuccess: (result: Result) => void;
  /** The API failed without naming a field (network, 5xx): the visitor should try again. */
  onFailure: (error: unknown) => void;
}

export function useContractForm<F extends string, Out, Result>(options: ContractFormOptions<F, Out, Result>) {
  const empty = () => Object.fromEntries(options.fields.map((field) => [field, ''])) as Record<F, string>;
  const [values, setValues] = useState<Record<F, string>>(empty);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [submitting, setSubmitting] = useState(false);
  const hydrated = useHydrated();
  const elements = useRef(new Map<F, HTMLInputElement | HTMLTextAreaElement>());

  // A visitor may type into the prerendered form before React hydrates it (the page's JS loads
  // after `load`); keep what they typed instead of the empty initial values.
  useEffect(() => {
    const typed: Partial<Record<F, string>> = {};
    for (const [field, element] of elements.current) if (element.value) typed[field] = element.value;
    if (Object.keys(typed).length > 0) setValues((current) => ({ ...current, ...typed }));
  }, []);

  const isField = (name: unknown): name is F => options.fields.includes(name as F);

  function focusFirst(found: FieldErrors<F>) {
    const first = options.fields.find((field) => found[field]);
    if (first) elements.current.get(first)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;

    const parsed = options.schema.safeParse(options.toInput ? options.toInput(values) : values);
    if (!parsed.success) {
      const found: FieldErrors<F> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (isField(field) && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      focusFirst(found);
      return;
    }

    setErrors({});
    setSubmitting(true);
    try {
      const result = await options.submit(parsed.data);
      setValues(empty());
      options.onSuccess(result);
    } catch (error) {
      const found: FieldErrors<F> = {};
      if (error instanceof ApiError) {
        for (const fieldError of error.errors) {
          if (isField(fieldError.field) && !found[fieldError.field])
            found[fieldError.field] = fieldError.message;
        }
      }
      if (Object.keys(found).length > 0) {
        setErrors(found);
        focusFirst(found);
      } else {
        options.onFailure(error);
      }
    } finally {
      setSubmitting(false);
    }
  }

  /** The props a field's control needs: value, change handler and a ref for focusing it. */
  function control(field: F) {
    return {
      name: field,
      value: values[field],
      error: errors[field],
      onChange: (value: string) => setValues((current) => ({ ...current, [field]: value })),
      ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
        if (element) elements.current.set(field, element);
        else elements.current.delete(field);
      },
    };
  }

  return { values, errors, submitting, hydrated, onSubmit, control };
}
