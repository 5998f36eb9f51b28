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

export function kycRejectedEmail(input: { to: string; name: string; appUrl: string }): EmailMessage {
  return composeEmail({
    to: input.to,
    subject: 'Your identity verification was not approved',
    heading: `Hello ${input.name || 'there'}`,
    paragraphs: [
      { text: 'We could not approve your identity verification.' },
      {
        text: 'This can happen when a photo is unclear or a document is not accepted. Contact us and we will tell you the next steps, including how to try again.',
        link: { label: 'Contact us', href: appLink(input.appUrl, contactPath) },
      },
      { text: 'Please do not reply to this email.' },
    ],
  });
}
