import type { OrganizationType } from '#contracts/organization.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { appLink, composeEmail } from './html.ts';

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

/**
 * Sent after registration: the single-use link sets the first password. Nothing the registering
 * person typed goes in (ADR 0072): the address is not proven yet, so a name or organization name
 * here would be anyone's words, sent to anyone from our domain.
 */
export function loginInstructionsEmail(input: {
  to: string;
  ticketUrl: string;
  ticketTtlDays: number;
  appUrl: string;
  /** The organization registration created: the sign-in link goes through it (ADR 0083). */
  organizationId?: string | undefined;
}): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'Your login instructions',
    heading: 'Welcome',
    paragraphs: [
      {
        text: `Thank you for registering your organization. An account has been created for ${input.to}.`,
      },
      {
        text: `Set your password with this single-use link. It expires in ${input.ticketTtlDays} days. Setting it also confirms this email address, so there is no separate verification email.`,
        link: { label: 'Set your password', href: input.ticketUrl },
      },
      {
        text: 'Then sign in with your email address and the new password, and complete the identity verification from your dashboard.',
        link: { label: 'Sign in', href: appLink(input.appUrl, organizationSignInPath(input.organizationId)) },
      },
      {
        text: 'If the link has expired, use "Forgot password?" on the sign-in page. If you did not register, ignore this email.',
      },
    ],
  });
}

/** Sent instead of an error when someone registers an address that already has an account. */
export function accountExistsEmail(input: { to: string; appUrl: string }): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'You already have an account',
    heading: 'You already have an account',
    paragraphs: [
      {
        text: 'Someone (probably you) tried to register a new organization account with this email address, which already has an account. No new account was created.',
      },
      {
        text: 'Sign in with your existing account. If you forgot your password, use "Forgot password?" on the sign-in page.',
        link: { label: 'Sign in', href: appLink(input.appUrl, signInPath) },
      },
      { text: 'If this was not you, you can ignore this email: your account has not changed.' },
    ],
  });
}

export const organizationTypeLabels: Record<OrganizationType, string> = {
  commercial: 'Commercial',
  defense: 'Defense',
  academic: 'Academic',
  government: 'Government',
};

/** To the operations address: only what operations needs to follow up (no contact details). */
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
