import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { appLink, composeEmail } from './html.ts';

export const dashboardPath = '/dashboard';
export const contactPath = '/contact';

export function kycApprovedEmail(input: { to: string; name: string; appUrl: string }): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'Your identity is verified',
    heading: `You are verified, ${input.name || 'welcome'}`,
    paragraphs: [
      { text: 'Your identity verification was approved. Your organization now has full access.' },
      {
        text: 'Open your dashboard to get started.',
        link: { label: 'Open your dashboard', href: appLink(input.appUrl, dashboardPath) },
      },
    ],
  });
}

export function kycRejectedEmail(input: {
  to: string;
  name: string;
  appUrl: string;
  /** The reason's message for the person (`lambdas/contracts/kyc-reasons.ts`), if the decision has one. */
  reason: string | null;
}): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'Your identity verification was not approved',
    heading: `Hello ${input.name || 'there'}`,
    paragraphs: [
      { text: 'We could not approve your identity verification.' },
      ...(input.reason ? [{ text: `The reason: ${input.reason}` }] : []),
      // The dashboard leads a rejected person to their status screen, with the reason.
      {
        text: 'Sign in to see your status. If a reviewer allows a new attempt, your status page offers "Verify again".',
        link: { label: 'See your status', href: appLink(input.appUrl, dashboardPath) },
      },
      {
        text: 'To ask for a new attempt or to tell us something we should know, write to us through the contact page and mention the email address you registered with.',
        link: { label: 'Contact us', href: appLink(input.appUrl, contactPath) },
      },
    ],
  });
}
