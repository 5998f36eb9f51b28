// Validation messages are not here: they come from the shared contract (#contracts/common.ts).
export const waitlist = {
  emailLabel: 'Email address',
  submit: 'Notify me',
  submitting: 'Registering...',
  success: 'Successfully registered for updates!',
  failure: 'Failed to register. Please try again.',
} as const;
