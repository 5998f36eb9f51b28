import type { RegistrationRequest } from '#contracts/registration.ts';

// Shared by the registration use cases' tests and the bench's count of DynamoDB calls
// (scripts/bench/dynamodb-calls.ts).

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
