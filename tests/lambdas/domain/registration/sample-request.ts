import type { RegistrationRequest } from '#contracts/registration.ts';

/** A valid registration as the wizard posts it (the address in mixed case, as people type it). */
export const sampleRegistrationRequest: RegistrationRequest = {
  responsibleName: 'Ada Lovelace',
  responsibleTitle: 'Chief Scientist',
  responsibleEmail: 'Ada@Helix-Labs.example',
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Helix Labs',
  organizationUrl: 'https://helix-labs.example',
  organizationType: 'defense',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
};
