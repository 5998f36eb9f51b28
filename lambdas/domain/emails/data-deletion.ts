import { deletionDeadlineDays } from '#contracts/data-deletion.ts';
import type { EmailMessage } from '../ports.ts';

// The confirmation a person receives after asking for erasure: the reference and the deadline.

const escapeHtml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export function dataDeletionConfirmationEmail(input: {
  to: string;
  requestId: string;
  /** YYYY-MM-DD. */
  dueBy: string;
  name?: string | undefined;
}): EmailMessage {
  const greeting = input.name?.trim() ? `Hello ${input.name.trim()},` : 'Hello,';
  const subject = `We received your data deletion request (${input.requestId})`;
  const paragraphs = [
    greeting,
    `we received your request to delete the personal data we hold about ${input.to}. Your request id is ${input.requestId}.`,
    `We will complete it within ${deletionDeadlineDays} days, by ${input.dueBy} at the latest, and confirm when it is done. Records we must keep by law (consent records and identity-verification decisions) are kept for their legal retention period only; we will tell you which.`,
    'If you did not make this request, reply to this email before then and we will not act on it.',
  ];
  return {
    to: input.to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  };
}
