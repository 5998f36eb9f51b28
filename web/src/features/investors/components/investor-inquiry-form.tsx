import { investorInquiryRequest } from '#contracts/investor-inquiry.ts';
import { Field } from '#web/components/field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { investors } from '#web/content/pages/investors.ts';
import { sendInvestorInquiry } from '#web/features/investors/api/send-investor-inquiry.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

const copy = investors.form;

export function InvestorInquiryForm() {
  const toast = useToast();
  const form = useContractForm({
    fields: { name: '', email: '', organization: '', message: '' },
    schema: investorInquiryRequest,
    submit: sendInvestorInquiry,
    onSuccess: () => toast.success(copy.success),
    onFailure: () => toast.error(copy.failure),
  });

  return (
    <form className="form" noValidate onSubmit={form.onSubmit}>
      <Field label={copy.nameLabel} autoComplete="name" required {...form.control('name')} />
      <Field label={copy.emailLabel} type="email" autoComplete="email" required {...form.control('email')} />
      <Field
        label={copy.organizationLabel}
        labelNote={copy.optional}
        autoComplete="organization"
        {...form.control('organization')}
      />
      <Field label={copy.messageLabel} labelNote={copy.optional} multiline {...form.control('message')} />
      <button type="submit" className="button" disabled={!form.hydrated || form.submitting}>
        {form.submitting ? copy.submitting : copy.submit}
      </button>
    </form>
  );
}
