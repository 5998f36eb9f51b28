import { contactRequest } from '#contracts/contact.ts';
import { Field } from '#web/components/field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { contact } from '#web/content/pages/contact.ts';
import { sendContactMessage } from '#web/features/contact/api/send-contact-message.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

const copy = contact.form;

export function ContactForm() {
  const toast = useToast();
  const form = useContractForm({
    fields: { name: '', email: '', organization: '', message: '' },
    schema: contactRequest,
    submit: sendContactMessage,
    onSuccess: () => toast.success(copy.success),
    onFailure: () => toast.error(copy.failure),
  });

  return (
    <form className="form" noValidate onSubmit={form.onSubmit}>
      <Field label={copy.nameLabel} autoComplete="name" required {...form.control('name')} />
      <Field label={copy.emailLabel} type="email" autoComplete="email" required {...form.control('email')} />
      <Field
        label={copy.organizationLabel}
        autoComplete="organization"
        required
        {...form.control('organization')}
      />
      <Field label={copy.messageLabel} multiline required {...form.control('message')} />
      <button type="submit" className="button" disabled={!form.hydrated || form.submitting}>
        {form.submitting ? copy.submitting : copy.submit}
      </button>
    </form>
  );
}
