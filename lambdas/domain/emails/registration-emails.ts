import type { ApiLocale } from '#contracts/locale.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { appLink, composeEmail, type Localized } from './html.ts';

/** Where people sign in on the web app (it starts the Auth0 redirect). */
export const signInPath = '/auth/login';

/**
 * The sign-in link of a member of an organization: through it (`/authorize?organization=`, which
 * the web passes on and remembers; ADR 0083). Auth0's id, not the registering person's words.
 */
export function organizationSignInPath(organizationId: string | undefined): string {
  return organizationId ? `${signInPath}?organization=${encodeURIComponent(organizationId)}` : signInPath;
}

/**
 * Where the password link of the login instructions returns: the web's `/registration-success`
 * (web/src/config/paths.ts), reached through the organization's sign-in (the web keeps the query
 * for the login). The first sign-in lands there (ADR 0086).
 */
export function registrationWelcomePath(organizationId: string | undefined): string {
  return organizationSignInPath(organizationId).replace(signInPath, '/registration-success');
}

interface LoginInstructionsTexts {
  subject: string;
  heading: string;
  created: (to: string) => string;
  password: (ttlDays: number) => string;
  passwordLink: string;
  signIn: string;
  signInLink: string;
  expired: string;
}

const loginInstructionsTexts: Localized<LoginInstructionsTexts> = {
  en: {
    subject: 'Your login instructions',
    heading: 'Welcome',
    created: (to) => `Thank you for registering your organization. An account has been created for ${to}.`,
    password: (days) =>
      `Set your password with this single-use link. It expires in ${days} days. Setting it also confirms this email address, so there is no separate verification email.`,
    passwordLink: 'Set your password',
    signIn:
      'Then sign in with your email address and the new password, and complete the identity verification from your dashboard.',
    signInLink: 'Sign in',
    expired:
      'If the link has expired, use "Forgot password?" on the sign-in page. If you did not register, ignore this email.',
  },
  de: {
    subject: 'Ihre Anleitung zur Anmeldung',
    heading: 'Willkommen',
    created: (to) =>
      `Vielen Dank, dass Sie Ihre Organisation registriert haben. Für ${to} wurde ein Konto angelegt.`,
    password: (days) =>
      `Legen Sie Ihr Passwort über diesen Link fest, der nur einmal verwendet werden kann. Er läuft in ${days} Tagen ab. Damit bestätigen Sie zugleich diese E-Mail-Adresse, eine separate Bestätigungs-E-Mail gibt es nicht.`,
    passwordLink: 'Passwort festlegen',
    signIn:
      'Melden Sie sich danach mit Ihrer E-Mail-Adresse und dem neuen Passwort an und schließen Sie die Identitätsprüfung über Ihr Dashboard ab.',
    signInLink: 'Anmelden',
    expired:
      'Ist der Link abgelaufen, nutzen Sie „Passwort vergessen?“ auf der Anmeldeseite. Wenn Sie sich nicht registriert haben, ignorieren Sie diese E-Mail.',
  },
};

/**
 * Sent after registration: the single-use link sets the first password. Nothing the registering
 * person typed goes in (ADR 0072): the address is not proven yet, so a name or organization name
 * here would be anyone's words, sent to anyone from our domain. In the registration's language.
 */
export function loginInstructionsEmail(input: {
  to: string;
  ticketUrl: string;
  ticketTtlDays: number;
  appUrl: string;
  /** The organization registration created: the sign-in link goes through it (ADR 0083). */
  organizationId?: string | undefined;
  locale: ApiLocale;
}): EmailMessage {
  const t = loginInstructionsTexts[input.locale];
  return composeEmail({
    to: input.to,
    locale: input.locale,
    subject: t.subject,
    heading: t.heading,
    paragraphs: [
      { text: t.created(input.to) },
      { text: t.password(input.ticketTtlDays), link: { label: t.passwordLink, href: input.ticketUrl } },
      {
        text: t.signIn,
        link: {
          label: t.signInLink,
          href: appLink(input.appUrl, organizationSignInPath(input.organizationId)),
        },
      },
      { text: t.expired },
    ],
  });
}

const accountExistsTexts: Localized<{
  subject: string;
  attempted: string;
  signIn: string;
  signInLink: string;
  notYou: string;
}> = {
  en: {
    subject: 'You already have an account',
    attempted:
      'Someone (probably you) tried to register a new organization account with this email address, which already has an account. No new account was created.',
    signIn:
      'Sign in with your existing account. If you forgot your password, use "Forgot password?" on the sign-in page.',
    signInLink: 'Sign in',
    notYou: 'If this was not you, you can ignore this email: your account has not changed.',
  },
  de: {
    subject: 'Sie haben bereits ein Konto',
    attempted:
      'Jemand (vermutlich Sie) hat versucht, mit dieser E-Mail-Adresse ein neues Organisationskonto zu registrieren. Für diese Adresse besteht bereits ein Konto. Es wurde kein neues Konto angelegt.',
    signIn:
      'Melden Sie sich mit Ihrem bestehenden Konto an. Wenn Sie Ihr Passwort vergessen haben, nutzen Sie „Passwort vergessen?“ auf der Anmeldeseite.',
    signInLink: 'Anmelden',
    notYou: 'Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren: Ihr Konto wurde nicht verändert.',
  },
};

/** Sent instead of an error when someone registers an address that already has an account. */
export function accountExistsEmail(input: { to: string; appUrl: string; locale: ApiLocale }): EmailMessage {
  const t = accountExistsTexts[input.locale];
  return composeEmail({
    to: input.to,
    locale: input.locale,
    subject: t.subject,
    heading: t.subject,
    paragraphs: [
      { text: t.attempted },
      { text: t.signIn, link: { label: t.signInLink, href: appLink(input.appUrl, signInPath) } },
      { text: t.notYou },
    ],
  });
}

export const organizationTypeLabels: Record<OrganizationType, string> = {
  commercial: 'Commercial',
  defense: 'Defense',
  academic: 'Academic',
  government: 'Government',
};

/**
 * To the operations address: only what operations needs to follow up (no contact details). In
 * English, the team's language, whatever the registrant's.
 */
export function registrationNotificationEmail(input: {
  to: string;
  userId: string;
  organizationName: string;
  organizationType: OrganizationType;
  occurredAt: string;
}): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: `New registration: ${input.organizationName}`,
    heading: 'A new organization registered',
    paragraphs: [
      { text: `Organization: ${input.organizationName}` },
      { text: `Type: ${organizationTypeLabels[input.organizationType]}` },
      { text: `User id: ${input.userId}` },
      { text: `Registered at: ${input.occurredAt}` },
    ],
  });
}
