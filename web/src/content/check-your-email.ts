import type { PageMeta } from './pages/types.ts';

export const checkYourEmail = {
  meta: {
    title: 'Check your email',
    description:
      'Your account has been created. Check your inbox for the email with your login instructions.',
  } satisfies PageMeta,
  title: 'Check your email',
  lead: 'Your account has been created.',
  /** Arrived from the wizard: the address it sent to, between the two halves. */
  sentTo: [
    'We have sent your login instructions to ',
    '. Open the email and follow its link to set your password, then log in.',
  ],
  /** Without the wizard's request (a bookmark, another tab): no address to show. */
  sentToYou:
    'We have sent your login instructions to your business email address. Open the email and follow its link to set your password, then log in.',
  body: ['It usually arrives within a few minutes. If you cannot find it, look in your spam or junk folder.'],
  /**
   * The inboxes of the two services that host most business mail. No link opens "your email app" at
   * its inbox (`mailto:` opens a new message), so the page links the web inboxes (ADR 0086).
   */
  inboxes: [
    { label: 'Open Outlook (Microsoft 365)', href: 'https://outlook.office.com/mail/' },
    { label: 'Open Gmail (Google Workspace)', href: 'https://mail.google.com/mail/u/0/#inbox' },
  ],
  newTab: '(opens in a new tab)',
  home: 'Back to Home',
  resend: {
    prompt: 'No email yet, or nothing after a few minutes? We can send it again.',
    button: 'Resend email',
    sending: 'Sending...',
    sent: (email: string) => `Sent again to ${email}. It can take a few minutes to arrive.`,
    spent:
      'We have sent it again three times, the most we send to one address in a day. If it has still not arrived, check the address above or contact us.',
    failed: 'The email could not be sent again. Please try again in a moment.',
  },
  wrongAddress: 'Wrong address?',
  registerAgain: 'Register with the right one',
  help: 'No email after 15 minutes?',
  contact: 'Contact us',
} as const;
