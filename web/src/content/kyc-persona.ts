// Copy of /kyc/persona, on its own: the route's whole signed-in load is budgeted (200 KiB gzip,
// docs/performance.md), so it carries none of the other identity-verification screens' words
// (those are in ./kyc.ts).

export const kycPersonaCopy = {
  title: 'Identity Verification',
  preparing: 'Preparing your verification...',
  inProgress: 'Your verification is open in the Persona window. Follow the steps there.',
  dialogLabel: 'Identity verification with Persona',
  frameTitle: 'Verify your identity',
  submitted: 'Verification submitted successfully.',
  canceled: 'Verification canceled',
  startFailed: 'Unable to start verification. Please try again.',
  failed: 'Verification failed. Please try again.',
  moduleFailed: 'Could not load verification module.',
  emailNotVerified: 'Please verify your email address before starting the verification.',
} as const;
