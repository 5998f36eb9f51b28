import type * as en from '#web/content/check-your-email.ts';
import type { Localized } from '#web/content/localized.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const checkYourEmail = {
  meta: {
    title: 'Prüfen Sie Ihr E-Mail-Postfach',
    description:
      'Ihr Konto wurde erstellt. Suchen Sie in Ihrem Posteingang nach der E-Mail mit Ihren Anmeldeanweisungen.',
  } satisfies PageMeta,
  title: 'Prüfen Sie Ihr E-Mail-Postfach',
  lead: 'Ihr Konto wurde erstellt.',
  /** Arrived from the wizard: the address it sent to, between the two halves. */
  sentTo: [
    'Wir haben Ihre Anmeldeanweisungen an ',
    ' gesendet. Öffnen Sie die E-Mail und folgen Sie dem Link darin, um Ihr Passwort festzulegen; melden Sie sich danach an.',
  ],
  /** Without the wizard's request (a bookmark, another tab): no address to show. */
  sentToYou:
    'Wir haben Ihre Anmeldeanweisungen an Ihre geschäftliche E-Mail-Adresse gesendet. Öffnen Sie die E-Mail und folgen Sie dem Link darin, um Ihr Passwort festzulegen; melden Sie sich danach an.',
  body: [
    'Sie kommt in der Regel innerhalb weniger Minuten an. Wenn Sie sie nicht finden, sehen Sie in Ihrem Spam- oder Junk-Ordner nach.',
  ],
  /**
   * The inboxes of the two services that host most business mail. No link opens "your email app" at
   * its inbox (`mailto:` opens a new message), so the page links the web inboxes (ADR 0086).
   */
  inboxes: [
    { label: 'Outlook öffnen (Microsoft 365)', href: 'https://outlook.office.com/mail/' },
    { label: 'Gmail öffnen (Google Workspace)', href: 'https://mail.google.com/mail/u/0/#inbox' },
  ],
  newTab: '(öffnet in einem neuen Tab)',
  home: 'Zurück zur Startseite',
  resend: {
    prompt: 'Noch keine E-Mail erhalten, auch nach einigen Minuten nicht? Wir können sie erneut senden.',
    button: 'E-Mail erneut senden',
    sending: 'Wird gesendet …',
    sent: (email: string) =>
      `Erneut an ${email} gesendet. Es kann einige Minuten dauern, bis die E-Mail ankommt.`,
    spent:
      'Wir haben die E-Mail bereits dreimal erneut gesendet, die Höchstzahl für eine Adresse an einem Tag. Wenn sie immer noch nicht angekommen ist, prüfen Sie die Adresse oben oder kontaktieren Sie uns.',
    failed: 'Die E-Mail konnte nicht erneut gesendet werden. Bitte versuchen Sie es gleich noch einmal.',
  },
  wrongAddress: 'Falsche Adresse?',
  registerAgain: 'Mit der richtigen Adresse registrieren',
  help: 'Nach 15 Minuten noch keine E-Mail?',
  contact: 'Kontaktieren Sie uns',
} as const satisfies Localized<typeof en.checkYourEmail>;
