import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/waitlist.ts';

// Validation messages are not here: they come from the shared contract (#contracts/common.ts).
export const waitlist = {
  emailLabel: 'E-Mail-Adresse',
  submit: 'Benachrichtigen Sie mich',
  submitting: 'Wird eingetragen …',
  success: 'Sie sind für Neuigkeiten eingetragen!',
  failure: 'Die Eintragung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
} as const satisfies Localized<typeof en.waitlist>;
