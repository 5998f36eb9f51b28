import type { PageMeta } from './pages/types.ts';

export const checkYourEmail = {
  meta: {
    title: 'Check your email',
    description:
      'Your account has been created. Check your inbox for the email with your login instructions.',
  } satisfies PageMeta,
  title: 'Check your email',
  lead: 'Your account has been created.',
  body: [
    'We have sent your login instructions to your business email address. Open the email and follow its link to set your password, then log in.',
    'It usually arrives within a few minutes. If you cannot find it, look in your spam or junk folder.',
  ],
  openEmail: 'Open Email App',
  home: 'Back to Home',
  help: 'No email after 15 minutes?',
  contact: 'Contact us',
} as const;
