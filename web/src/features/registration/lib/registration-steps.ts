import type { FieldName } from '#web/lib/use-contract-form.ts';

// The wizard's fields (the contract's RegistrationRequest, as the form holds them), which step
// shows which and with what control. Every step is validated against the same contract schema,
// limited to its fields.

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

type StringField = {
  [K in RegistrationField]: RegistrationValues[K] extends string ? K : never;
}[RegistrationField];

/**
 * How the wizard shows a field: a text input unless `control` says otherwise (its label, hint and
 * options are the copy's: web/src/content/registration.ts). The honeypot belongs to the last step,
 * so that step's check covers it, but is drawn apart, outside the steps.
 */
export type RegistrationControl =
  | {
      name: Exclude<StringField, 'website'>;
      control?: undefined;
      type?: 'email' | 'tel' | 'url';
      autoComplete: string;
    }
  | { name: 'organizationType'; control: 'select' }
  | { name: Exclude<RegistrationField, StringField>; control: 'agreement' }
  | { name: 'website'; control: 'honeypot' };

export const registrationSteps = [
  {
    id: 'responsible',
    fields: [
      { name: 'responsibleName', autoComplete: 'name' },
      { name: 'responsibleTitle', autoComplete: 'organization-title' },
      { name: 'responsibleEmail', type: 'email', autoComplete: 'email' },
      { name: 'responsiblePhone', type: 'tel', autoComplete: 'tel' },
    ],
  },
  {
    id: 'organization',
    fields: [
      { name: 'organizationName', autoComplete: 'organization' },
      { name: 'organizationUrl', type: 'url', autoComplete: 'url' },
      { name: 'organizationType', control: 'select' },
    ],
  },
  {
    id: 'agreements',
    fields: [
      { name: 'termsAgreed', control: 'agreement' },
      { name: 'privacyAgreed', control: 'agreement' },
      { name: 'nonHarmAgreed', control: 'agreement' },
      { name: 'website', control: 'honeypot' },
    ],
  },
] as const satisfies readonly { id: string; fields: readonly RegistrationControl[] }[];

export type StepIndex = 0 | 1 | 2;
export const lastStep: StepIndex = 2;

/** The names of a step's fields, in order: what checking the step validates. */
export const stepFields = (step: StepIndex): RegistrationField[] =>
  registrationSteps[step].fields.map((field) => field.name);

/** The step that shows `field`. */
export function stepOf(field: RegistrationField): StepIndex {
  const index = registrationSteps.findIndex((step) =>
    step.fields.some((entry: RegistrationControl) => entry.name === field),
  );
  return index < 0 ? 0 : (index as StepIndex);
}

/** The fields saved across a reload: what the person typed, never the agreements or the honeypot. */
export const savedFields = [...registrationSteps[0].fields, ...registrationSteps[1].fields].map(
  (field) => field.name,
);

/**
 * The body of POST /api/registrations. A website typed without a scheme ("helix-labs.com") is
 * the organization's https site; any other scheme is left for the contract to refuse.
 */
export function toRegistrationRequest(values: RegistrationValues): unknown {
  const url = values.organizationUrl.trim();
  const organizationUrl = url === '' || /^[a-z][a-z\d+.-]*:/i.test(url) ? url : `https://${url}`;
  return { ...values, organizationUrl };
}
