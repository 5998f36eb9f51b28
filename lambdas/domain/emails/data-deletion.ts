import type { ApiLocale } from '#contracts/locale.ts';
import { deletionDeadlineDays } from '#contracts/retention.ts';
import type { EmailMessage } from '../ports.ts';
import { appLink, composeEmail, escapeHtml, type Localized } from './html.ts';

// The emails of a data-deletion request: the confirmation link a public request sends to the
// address (nothing happens until it is used), and the receipt of a confirmed request. Both in the
// language of the request that asked for them (issue 28).

/**
 * Where the link leads: a page (web/src/config/paths.ts) that asks for a click, then POSTs the token.
 * Never a GET that changes state: mail scanners open links.
 */
export const deletionConfirmationPath = '/data-deletion/confirm';

/** `2026-02-11 23:30 UTC`: unambiguous in any reader's time zone and language. */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const confirmationTexts: Localized<{
  subject: string;
  asked: (to: string, requestId: string) => string;
  confirm: (by: string) => string;
  confirmLink: string;
  notYou: string;
}> = {
  en: {
    subject: 'Confirm your data deletion request',
    asked: (to, id) =>
      `Hello, someone (probably you) asked us to delete the personal data we hold about ${to}. The request id is ${id}.`,
    confirm: (by) =>
      `Nothing happens until you confirm. Open the link and press the confirm button before ${by}; we then complete the request within ${deletionDeadlineDays} days.`,
    confirmLink: 'Confirm the deletion request',
    notYou: 'If you did not ask for this, ignore this email: without your confirmation nothing is deleted.',
  },
  de: {
    subject: 'Bestätigen Sie Ihre Anfrage zur Datenlöschung',
    asked: (to, id) =>
      `Guten Tag, jemand (vermutlich Sie) hat uns gebeten, die personenbezogenen Daten zu löschen, die wir über ${to} gespeichert haben. Die Kennung der Anfrage lautet ${id}.`,
    confirm: (by) =>
      `Es geschieht nichts, bevor Sie bestätigen. Öffnen Sie den Link und klicken Sie vor ${by} auf die Schaltfläche zum Bestätigen; wir erledigen die Anfrage dann innerhalb von ${deletionDeadlineDays} Tagen.`,
    confirmLink: 'Löschanfrage bestätigen',
    notYou:
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ohne Ihre Bestätigung wird nichts gelöscht.',
  },
};

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
  locale: ApiLocale;
}): EmailMessage {
  const t = confirmationTexts[input.locale];
  return composeEmail({
    to: input.to,
    locale: input.locale,
    subject: t.subject,
    heading: t.subject,
    paragraphs: [
      { text: t.asked(input.to, input.requestId) },
      {
        text: t.confirm(utcMinute(input.confirmBy)),
        link: {
          label: t.confirmLink,
          href: `${appLink(input.appUrl, deletionConfirmationPath)}#token=${encodeURIComponent(input.token)}`,
        },
      },
      { text: t.notYou },
    ],
  });
}

const receiptTexts: Localized<{
  subject: (requestId: string) => string;
  greeting: (name: string) => string;
  received: (to: string, requestId: string) => string;
  deadline: (dueBy: string) => string;
  notYou: string;
}> = {
  en: {
    subject: (id) => `We received your data deletion request (${id})`,
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    received: (to, id) =>
      `we received your request to delete the personal data we hold about ${to}. Your request id is ${id}.`,
    deadline: (dueBy) =>
      `We will complete it within ${deletionDeadlineDays} days, by ${dueBy} at the latest, and confirm when it is done. Records we must keep by law (consent records and identity-verification decisions) are kept for their legal retention period only; we will tell you which.`,
    notYou: 'If you did not make this request, reply to this email before then and we will not act on it.',
  },
  de: {
    subject: (id) => `Wir haben Ihre Anfrage zur Datenlöschung erhalten (${id})`,
    greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    received: (to, id) =>
      `wir haben Ihre Anfrage erhalten, die personenbezogenen Daten zu löschen, die wir über ${to} gespeichert haben. Die Kennung Ihrer Anfrage lautet ${id}.`,
    deadline: (dueBy) =>
      `Wir erledigen sie innerhalb von ${deletionDeadlineDays} Tagen, spätestens bis zum ${dueBy}, und bestätigen Ihnen, wenn sie abgeschlossen ist. Unterlagen, die wir gesetzlich aufbewahren müssen (Einwilligungsnachweise und Entscheidungen der Identitätsprüfung), bewahren wir nur für die gesetzliche Aufbewahrungsfrist auf; wir teilen Ihnen mit, welche.`,
    notYou:
      'Wenn Sie diese Anfrage nicht gestellt haben, antworten Sie bis dahin auf diese E-Mail, dann werden wir nicht tätig.',
  },
};

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
  locale: ApiLocale;
}): EmailMessage {
  const t = receiptTexts[input.locale];
  const subject = t.subject(input.requestId);
  const paragraphs = [
    t.greeting(input.name?.trim() ?? ''),
    t.received(input.to, input.requestId),
    t.deadline(input.dueBy),
    t.notYou,
  ];
  return {
    to: input.to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  };
}
