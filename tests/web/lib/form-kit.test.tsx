// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { newAttemptRequest, verificationDecisionRequest } from '#contracts/admin-verifications.ts';
import { consentMessages, consentRequest } from '#contracts/consent.ts';
import { CheckboxField, Field, SelectField } from '#web/components/field.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { hydrationStarts } from '#web/lib/hydrated.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

// The form kit with the journey's own contracts: the consent dialog's three required checkboxes,
// and an admin's decision (a select with a placeholder and a required reason).

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

interface Handlers {
  submit: (data: unknown) => Promise<unknown>;
  onSuccess?: () => void;
  onFailure?: (error: unknown) => void;
}

const consentLabels = {
  identity_verification_consent: 'I agree to identity verification',
  biometric_data_consent: 'I consent to the processing of biometric data',
  privacy_policy_consent: 'I have read the privacy policy',
} as const;

function ConsentForm({ submit, onSuccess = () => {}, onFailure = () => {} }: Handlers) {
  const form = useContractForm({
    fields: {
      identity_verification_consent: false,
      biometric_data_consent: false,
      privacy_policy_consent: false,
    },
    schema: consentRequest,
    toInput: (values) => ({ ...values, consent_type: 'identity_verification' }),
    submit,
    onSuccess,
    onFailure,
  });
  return (
    <form noValidate aria-busy={form.submitting} onSubmit={form.onSubmit}>
      {(Object.keys(consentLabels) as (keyof typeof consentLabels)[]).map((field) => (
        <CheckboxField key={field} label={consentLabels[field]} required {...form.control(field)} />
      ))}
      <button type="submit" disabled={!form.hydrated || form.submitting}>
        {form.submitting ? 'Saving...' : 'Give consent'}
      </button>
    </form>
  );
}

/** The consent form as the prerender writes it: not yet hydrated, its button disabled. */
function prerenderedConsentForm() {
  const container = document.createElement('div');
  document.body.append(container);
  const submit = vi.fn(async () => ({}));
  container.innerHTML = renderToString(<ConsentForm submit={submit} />);
  const button = container.querySelector('button');
  expect(button?.disabled).toBe(true);
  return { container, button, submit };
}

/** A select and a required text, as the kit meets them in the contracts. */
const decisionSchema = z.strictObject({
  decision: verificationDecisionRequest.shape.decision,
  reason: newAttemptRequest.shape.reason,
});

function DecisionForm({ submit, saved }: Handlers & { saved?: Record<string, unknown> }) {
  const form = useContractForm({
    fields: { decision: '', reason: '' },
    schema: decisionSchema,
    submit,
    onSuccess: () => {},
    onFailure: () => {},
  });
  return (
    <form noValidate onSubmit={form.onSubmit}>
      <SelectField
        label="Decision"
        placeholder="Choose a decision"
        options={[
          { value: 'approved', label: 'Approve' },
          { value: 'rejected', label: 'Reject' },
        ]}
        required
        {...form.control('decision')}
      />
      <Field label="Reason" multiline required {...form.control('reason')} />
      <button type="button" onClick={() => form.validate(['decision'])}>
        Check the decision only
      </button>
      <button type="button" onClick={() => saved && form.restore(saved)}>
        Restore
      </button>
      <button type="submit">Decide</button>
    </form>
  );
}

function expectError(label: string, message: string) {
  const control = screen.getByLabelText(label);
  expect(control.getAttribute('aria-invalid')).toBe('true');
  expect(control.getAttribute('aria-describedby')).toBe(screen.getByText(message).id);
}

describe('checkboxes', () => {
  it('refuses unticked required checkboxes with each contract message and focuses the first', async () => {
    const submit = vi.fn(async () => ({}));
    const user = userEvent.setup();
    render(<ConsentForm submit={submit} />);

    await user.click(screen.getByRole('checkbox', { name: consentLabels.biometric_data_consent }));
    await user.click(screen.getByRole('button', { name: 'Give consent' }));

    expectError(consentLabels.identity_verification_consent, consentMessages.identity_verification_consent);
    expectError(consentLabels.privacy_policy_consent, consentMessages.privacy_policy_consent);
    expect(screen.queryByText(consentMessages.biometric_data_consent)).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText(consentLabels.identity_verification_consent));
    expect(submit).not.toHaveBeenCalled();
  });

  it('submits booleans once every box is ticked', async () => {
    const submit = vi.fn(async () => ({}));
    const user = userEvent.setup();
    render(<ConsentForm submit={submit} />);

    for (const label of Object.values(consentLabels))
      await user.click(screen.getByRole('checkbox', { name: label }));
    await user.click(screen.getByRole('button', { name: 'Give consent' }));

    expect(submit).toHaveBeenCalledWith({
      identity_verification_consent: true,
      biometric_data_consent: true,
      privacy_policy_consent: true,
      consent_type: 'identity_verification',
    });
  });

  it('keeps boxes ticked in the prerendered form before hydration', async () => {
    const { container, button, submit } = prerenderedConsentForm();

    const early = container.querySelector<HTMLInputElement>('input[name="biometric_data_consent"]');
    if (!early) throw new Error('no checkbox');
    early.checked = true;
    await act(async () => {
      hydrateRoot(container, <ConsentForm submit={submit} />);
    });
    await waitFor(() => expect(button?.disabled).toBe(false));

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Give consent' }));
    expect(screen.queryByText(consentMessages.biometric_data_consent)).toBeNull();
    expect(screen.getByText(consentMessages.identity_verification_consent)).toBeDefined();
  });
});

describe('hydration as the site boots (web/src/app/boot.tsx)', () => {
  it('keeps the submit button disabled while React hydrates, then enables it', async () => {
    const { container, button, submit } = prerenderedConsentForm();

    hydrationStarts();
    await act(async () => {
      hydrateRoot(container, <ConsentForm submit={submit} />);
    });
    await waitFor(() => expect(button?.disabled).toBe(false));
    // A form mounted after that (a client-side navigation) is interactive in its first render.
    const later = document.createElement('div');
    document.body.append(later);
    const root = createRoot(later);
    flushSync(() => root.render(<ConsentForm submit={submit} />));
    expect(later.querySelector('button')?.disabled).toBe(false);
    act(() => root.unmount());
  });
});

describe('selects', () => {
  it('starts on the placeholder, which the schema refuses, and submits the chosen value', async () => {
    const submit = vi.fn(async () => ({}));
    const user = userEvent.setup();
    render(<DecisionForm submit={submit} />);
    const select = screen.getByLabelText<HTMLSelectElement>('Decision');
    expect(select.value).toBe('');
    expect(select.selectedOptions[0]?.text).toBe('Choose a decision');

    await user.click(screen.getByRole('button', { name: 'Decide' }));
    expectError('Decision', 'Choose approved or rejected');
    expectError('Reason', 'The reason must be at least 3 characters');
    expect(document.activeElement).toBe(select);

    await user.selectOptions(select, 'Reject');
    await user.type(screen.getByLabelText('Reason'), '  Document expired  ');
    await user.click(screen.getByRole('button', { name: 'Decide' }));
    expect(submit).toHaveBeenCalledWith({ decision: 'rejected', reason: 'Document expired' });
  });
});

describe('validating a subset of the schema', () => {
  it("shows only the given fields' errors and leaves the others alone", async () => {
    const user = userEvent.setup();
    render(<DecisionForm submit={async () => ({})} />);

    await user.click(screen.getByRole('button', { name: 'Check the decision only' }));

    expectError('Decision', 'Choose approved or rejected');
    expect(screen.getByLabelText('Reason').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('The reason must be at least 3 characters')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Decision'), 'Approve');
    await user.click(screen.getByRole('button', { name: 'Check the decision only' }));
    expect(screen.getByLabelText('Decision').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('restoring saved values', () => {
  it('fills only the fields still empty and ignores a value of the wrong kind', async () => {
    const user = userEvent.setup();
    render(<DecisionForm submit={async () => ({})} saved={{ decision: 'approved', reason: 42 }} />);
    await user.type(screen.getByLabelText('Reason'), 'Typed first');

    await user.click(screen.getByRole('button', { name: 'Restore' }));

    expect(screen.getByLabelText<HTMLSelectElement>('Decision').value).toBe('approved');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Reason').value).toBe('Typed first');
  });
});

describe('the busy state', () => {
  it('disables the controls and the button, says so, and sends once however often it is pressed', async () => {
    let answer: (value: unknown) => void = () => {};
    const submit = vi.fn(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    const onSuccess = vi.fn();
    const user = userEvent.setup();
    render(<ConsentForm submit={submit} onSuccess={onSuccess} />);
    for (const label of Object.values(consentLabels))
      await user.click(screen.getByRole('checkbox', { name: label }));

    await user.click(screen.getByRole('button', { name: 'Give consent' }));
    await user.keyboard('{Enter}');

    const busy = screen.getByRole('button', { name: 'Saving...' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(busy.closest('form')?.getAttribute('aria-busy')).toBe('true');
    for (const checkbox of screen.getAllByRole('checkbox'))
      expect(checkbox.hasAttribute('disabled')).toBe(true);
    expect(submit).toHaveBeenCalledTimes(1);

    await act(async () => answer({}));
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Give consent' }).hasAttribute('disabled')).toBe(false);
    // A successful form starts afresh.
    for (const checkbox of screen.getAllByRole('checkbox'))
      expect((checkbox as HTMLInputElement).checked).toBe(false);
  });

  it("puts the API's field error on its checkbox and focuses it once the form is enabled again", async () => {
    const onFailure = vi.fn();
    const submit = vi.fn(async () => {
      throw new ApiError({
        status: 400,
        title: 'Bad Request',
        errors: [{ field: 'privacy_policy_consent', message: 'Read the current privacy policy first' }],
      });
    });
    const user = userEvent.setup();
    render(<ConsentForm submit={submit} onFailure={onFailure} />);
    for (const label of Object.values(consentLabels))
      await user.click(screen.getByRole('checkbox', { name: label }));

    await user.click(screen.getByRole('button', { name: 'Give consent' }));

    await screen.findByText('Read the current privacy policy first');
    expectError(consentLabels.privacy_policy_consent, 'Read the current privacy policy first');
    expect(document.activeElement).toBe(screen.getByLabelText(consentLabels.privacy_policy_consent));
    expect(onFailure).not.toHaveBeenCalled();
  });
});
