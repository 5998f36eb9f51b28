import { decisionReasons, germanDecisionReasons, isDecisionReasonCode } from '#contracts/kyc-reasons.ts';
import type { ApiLocale } from '#contracts/locale.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { appLink, composeEmail, type Localized } from './html.ts';

// The KYC decision emails, in the person's language: their latest choice, else the one they
// registered in, else English (issue 28; notify.ts picks it from the profile).

export const dashboardPath = '/dashboard';
export const contactPath = '/contact';

/** A decision's reason as the person reads it in their language; null without a known code. */
export function reasonMessage(code: string | null | undefined, locale: ApiLocale): string | null {
  if (!isDecisionReasonCode(code)) return null;
  return locale === 'de' ? germanDecisionReasons[code].message : decisionReasons[code].message;
}

const approvedTexts: Localized<{
  subject: string;
  heading: (name: string) => string;
  approved: string;
  open: string;
  openLink: string;
}> = {
  en: {
    subject: 'Your identity is verified',
    heading: (name) => `You are verified, ${name || 'welcome'}`,
    approved: 'Your identity verification was approved. Your organization now has full access.',
    open: 'Open your dashboard to get started.',
    openLink: 'Open your dashboard',
  },
  de: {
    subject: 'Ihre Identität ist bestätigt',
    heading: (name) => (name ? `Sie sind verifiziert, ${name}` : 'Sie sind verifiziert'),
    approved: 'Ihre Identitätsprüfung wurde genehmigt. Ihre Organisation hat jetzt vollen Zugang.',
    open: 'Öffnen Sie Ihr Dashboard, um loszulegen.',
    openLink: 'Dashboard öffnen',
  },
};

export function kycApprovedEmail(input: {
  to: string;
  name: string;
  appUrl: string;
  locale: ApiLocale;
}): EmailMessage {
  const t = approvedTexts[input.locale];
  return composeEmail({
    to: input.to,
    locale: input.locale,
    subject: t.subject,
    heading: t.heading(input.name),
    paragraphs: [
      { text: t.approved },
      { text: t.open, link: { label: t.openLink, href: appLink(input.appUrl, dashboardPath) } },
    ],
  });
}

const rejectedTexts: Localized<{
  subject: string;
  heading: (name: string) => string;
  rejected: string;
  reason: (reason: string) => string;
  status: string;
  statusLink: string;
  contact: string;
  contactLink: string;
}> = {
  en: {
    subject: 'Your identity verification was not approved',
    heading: (name) => `Hello ${name || 'there'}`,
    rejected: 'We could not approve your identity verification.',
    reason: (reason) => `The reason: ${reason}`,
    status:
      'Sign in to see your status. If a reviewer allows a new attempt, your status page offers "Verify again".',
    statusLink: 'See your status',
    contact:
      'To ask for a new attempt or to tell us something we should know, write to us through the contact page and mention the email address you registered with.',
    contactLink: 'Contact us',
  },
  de: {
    subject: 'Ihre Identitätsprüfung wurde nicht genehmigt',
    heading: (name) => (name ? `Guten Tag, ${name}` : 'Guten Tag'),
    rejected: 'Wir konnten Ihre Identitätsprüfung nicht genehmigen.',
    reason: (reason) => `Der Grund: ${reason}`,
    status:
      'Melden Sie sich an, um Ihren Status zu sehen. Wenn eine Prüferin oder ein Prüfer einen neuen Versuch erlaubt, bietet Ihre Statusseite „Erneut verifizieren“ an.',
    statusLink: 'Status ansehen',
    contact:
      'Um einen neuen Versuch zu erbitten oder uns etwas mitzuteilen, das wir wissen sollten, schreiben Sie uns über die Kontaktseite und nennen Sie die E-Mail-Adresse, mit der Sie sich registriert haben.',
    contactLink: 'Kontakt aufnehmen',
  },
};

export function kycRejectedEmail(input: {
  to: string;
  name: string;
  appUrl: string;
  locale: ApiLocale;
  /** The decision's reason code (`lambdas/contracts/kyc-reasons.ts`), if it has one. */
  reasonCode: string | null | undefined;
}): EmailMessage {
  const t = rejectedTexts[input.locale];
  const reason = reasonMessage(input.reasonCode, input.locale);
  return composeEmail({
    to: input.to,
    locale: input.locale,
    subject: t.subject,
    heading: t.heading(input.name),
    paragraphs: [
      { text: t.rejected },
      ...(reason ? [{ text: t.reason(reason) }] : []),
      // The dashboard leads a rejected person to their status screen, with the reason.
      { text: t.status, link: { label: t.statusLink, href: appLink(input.appUrl, dashboardPath) } },
      { text: t.contact, link: { label: t.contactLink, href: appLink(input.appUrl, contactPath) } },
    ],
  });
}
