import { deletionDeadlineDays } from '#contracts/retention.ts';
import type { EmailMessage } from '../ports.ts';
import { appLink, composeEmail, escapeHtml } from './html.ts';

// The emails of a data-deletion request: the confirmation link a public request sends to the
// address (nothing happens until it is used), and the receipt of a confirmed request.

/**
 * Where the link leads: a page (web/src/config/paths.ts) that asks for a click, then POSTs the token.
 * Never a GET that changes state: mail scanners open links.
 */
export const deletionConfirmationPath = '/data-deletion/confirm';

const greeting = (name: string | undefined) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,');

/** `2026-02-11 23:30 UTC`: unambiguous in any reader's time zone. */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * Goes to an address nobody has proven yet, so it carries no text the requester typed (ADR 0072):
 * only the address itself, the request id and our own words.
 */
export function dataDeletionConfirmationEmail(input: {
  to: string;
  requestId: string;
  appUrl: string;
  /** Single use; travels only in this email (the link's fragment never reaches a server log). */
  token: string;
  /** ISO 8601: when the link stops working. */
  confirmBy: string;
}): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'Confirm your data deletion request',
    heading: 'Confirm your data deletion request',
    paragraphs: [
      {
        text: `Hello, someone (probably you) asked us to delete the personal data we hold about ${input.to}. The request id is ${input.requestId}.`,
      },
      {
        text: `Nothing happens until you confirm. Open the link and press the confirm button before ${utcMinute(input.confirmBy)}; we then complete the request within ${deletionDeadlineDays} days.`,
        link: {
          label: 'Confirm the deletion request',
          href: `${appLink(input.appUrl, deletionConfirmationPath)}#token=${encodeURIComponent(input.token)}`,
        },
      },
      {
        text: 'If you did not ask for this, ignore this email: without your confirmation nothing is deleted.',
      },
    ],
  });
}

/**
 * The receipt of a confirmed request: the reference and the deadline. Sent only to the signed-in
 * person's verified address, so the account's own name may greet them.
 */
export function dataDeletionReceiptEmail(input: {
  to: string;
  requestId: string;
  /** YYYY-MM-DD. */
  dueBy: string;
  name?: string | undefined;
}): EmailMessage {
  const subject = `We received your data deletion request (${input.requestId})`;
  const paragraphs = [
    greeting(input.name),
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
