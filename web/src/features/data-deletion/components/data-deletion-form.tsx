import { useState } from 'react';
import { type DataDeletionPending, dataDeletionRequest } from '#contracts/data-deletion.ts';
import { DeletionDetailsField } from '#web/components/deletion-details-field.tsx';
import { Field } from '#web/components/field.tsx';
import { Receipt } from '#web/components/receipt.tsx';
import { useToast } from '#web/components/toast.tsx';
import { dataDeletion } from '#web/content/pages/legal/data-deletion.ts';
import { requestDataDeletion } from '#web/features/data-deletion/api/request-data-deletion.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

const copy = dataDeletion.form;

export function DataDeletionForm() {
  const toast = useToast();
  const [accepted, setAccepted] = useState<DataDeletionPending | null>(null);
  const form = useContractForm({
    fields: { email: '', name: '', details: '' },
    schema: dataDeletionRequest,
    // Optional fields left empty are not sent: the request holds only what the person gave.
    toInput: (values) =>
      Object.fromEntries(
        Object.entries(values).filter(([key, value]) => key === 'email' || value.trim() !== ''),
      ),
    submit: requestDataDeletion,
    onSuccess: setAccepted,
    onFailure: () => toast.error(copy.failure),
  });

  return (
    <>
      <form className="form" noValidate onSubmit={form.onSubmit}>
        <Field
          label={copy.emailLabel}
          type="email"
          autoComplete="email"
          required
          {...form.control('email')}
        />
        <Field
          label={copy.nameLabel}
          labelNote={copy.optional}
          autoComplete="name"
          {...form.control('name')}
        />
        <DeletionDetailsField copy={copy} {...form.control('details')} />
        <button type="submit" className="button" disabled={!form.hydrated || form.submitting}>
          {form.submitting ? copy.submitting : copy.submit}
        </button>
      </form>
      <Receipt
        accepted={accepted !== null}
        title={copy.receivedTitle}
        details={accepted ? [{ term: copy.requestIdLabel, value: <code>{accepted.requestId}</code> }] : []}
      >
        <p>{copy.receivedBody}</p>
      </Receipt>
    </>
  );
}
