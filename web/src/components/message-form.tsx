import type * as z from 'zod/mini';
import { Field } from '#web/components/field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { useContractForm } from '#web/lib/use-contract-form.ts';

// The public message forms (contact, investor inquiry): name, business email, organization and
// message, validated with the route's contract and answered with a toast. Each page gives its copy,
// its contract and its API call; the fields and their behaviour are written once, here.

export interface MessageFormCopy {
  nameLabel: string;
  emailLabel: string;
  organizationLabel: string;
  messageLabel: string;
  /** The note after the organization and message labels where the contract lets both be empty. */
  optional?: string;
  submit: string;
  submitting: string;
  success: string;
  failure: string;
}

export interface MessageFormProps<Out> {
  copy: MessageFormCopy;
  schema: z.ZodMiniType<Out>;
  submit: (request: Out) => Promise<unknown>;
  /** True where the contract requires the organization and the message (the contact form). */
  requireAll: boolean;
}

const empty = { name: '', email: '', organization: '', message: '' };

export function MessageForm<Out>({ copy, schema, submit, requireAll }: MessageFormProps<Out>) {
  const toast = useToast();
  const form = useContractForm({
    fields: empty,
    schema,
    submit,
    onSuccess: () => toast.success(copy.success),
    onFailure: () => toast.error(copy.failure),
  });
  const note = requireAll ? undefined : copy.optional;

  return (
    <form className="form" noValidate onSubmit={form.onSubmit}>
      <Field label={copy.nameLabel} autoComplete="name" required {...form.control('name')} />
      <Field label={copy.emailLabel} type="email" autoComplete="email" required {...form.control('email')} />
      <Field
        label={copy.organizationLabel}
        labelNote={note}
        autoComplete="organization"
        required={requireAll}
        {...form.control('organization')}
      />
      <Field
        label={copy.messageLabel}
        labelNote={note}
        multiline
        required={requireAll}
        {...form.control('message')}
      />
      <button type="submit" className="button" disabled={!form.hydrated || form.submitting}>
        {form.submitting ? copy.submitting : copy.submit}
      </button>
    </form>
  );
}
