import type { FieldName } from '#web/lib/use-contract-form.ts';

// The wizard's fields (the contract's RegistrationRequest, as the form holds them) and which step
// shows which. Every step is validated against the same contract schema, limited to its fields.

export const registrationFields = {
  responsibleName: '',
  responsibleTitle: '',
  responsibleEmail: '',
  responsiblePhone: '',
  organizationName: '',
  organizationUrl: '',
  organizationType: '',
  termsAgreed: false,
  privacyAgreed: false,
  nonHarmAgreed: false,
  /** The honeypot: sent as it is (empty, unless a bot filled it). */
  website: '',
};

export type RegistrationValues = typeof registrationFields;
export type RegistrationField = FieldName<RegistrationValues>;

export const registrationSteps = [
  {
    id: 'responsible',
    fields: ['responsibleName', 'responsibleTitle', 'responsibleEmail', 'responsiblePhone'],
  },
  { id: 'organization', fields: ['organizationName', 'organizationUrl', 'organizationType'] },
  { id: 'agreements', fields: ['termsAgreed', 'privacyAgreed', 'nonHarmAgreed', 'website'] },
] as const satisfies readonly { id: string; fields: readonly RegistrationField[] }[];

export type StepIndex = 0 | 1 | 2;
export const lastStep: StepIndex = 2;

/** The step that shows `field`. */
export function stepOf(field: RegistrationField): StepIndex {
  const index = registrationSteps.findIndex((step) => (step.fields as readonly string[]).includes(field));
  return index < 0 ? 0 : (index as StepIndex);
}

/** The fields saved across a reload: what the person typed, never the agreements or the honeypot. */
export const savedFields = [
  ...registrationSteps[0].fields,
  ...registrationSteps[1].fields,
] as const satisfies readonly RegistrationField[];

/**
 * The body of POST /api/registrations. A website typed without a scheme ("helix-labs.com") is
 * the organization's https site; any other scheme is left for the contract to refuse.
 */
export function toRegistrationRequest(values: RegistrationValues): unknown {
  const url = values.organizationUrl.trim();
  const organizationUrl = url === '' || /^[a-z][a-z\d+.-]*:/i.test(url) ? url : `https://${url}`;
  return { ...values, organizationUrl };
}
