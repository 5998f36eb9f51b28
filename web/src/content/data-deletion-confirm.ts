import { deletionDeadlineDays } from '#contracts/retention.ts';
import type { PageMeta } from './pages/types.ts';

// /data-deletion/confirm: where a data-deletion request's emailed link leads.

export const dataDeletionConfirm = {
  meta: {
    title: 'Confirm your data deletion request',
    description: 'Confirm the data deletion request you made, from the link we emailed you.',
  } satisfies PageMeta,
  title: 'Confirm your data deletion request',
  lead: 'You asked us to delete the personal data we hold about your email address. Nothing is deleted until you confirm.',
  body: `Once you confirm, we complete the request within ${deletionDeadlineDays} days and tell you which records the law requires us to keep.`,
  confirm: 'Confirm Deletion Request',
  confirming: 'Confirming...',
  missing:
    'This link is incomplete. Open the link in the email again, or copy all of it into the address bar.',
  invalid:
    'This link does not work any more: it has expired or has already been used. To ask again, use the form on the Data Deletion page.',
  dataDeletionLink: 'Go to Data Deletion',
  failed: 'Your confirmation could not be sent. Please try again.',
  confirmedTitle: 'Deletion request confirmed',
  requestIdLabel: 'Request ID',
  dueByLabel: 'Due by',
  confirmedBody:
    'Please keep the request ID. We will complete your request by the date above and confirm by email when it is done.',
} as const;
