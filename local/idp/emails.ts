// The identity provider's own emails (Auth0 sends these from its templates); they go out through
// the Lambdas' SES adapter, like Auth0's email provider would send them through SES.
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { escapeHtml } from './http-util.ts';

function layout(title: string, paragraphs: string[], link: { href: string; label: string }): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1a1a1a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p style="color:#555;font-size:13px">If the button does not work, copy this address into your browser: ${escapeHtml(link.href)}</p>
</body></html>`;
}

export function verificationEmail(to: string, link: string): EmailMessage {
  const subject = 'Verify your email';
  const intro = 'Please confirm your email address to finish setting up your account.';
  return {
    to,
    subject,
    text: `${intro}\n\nOpen this link to verify your email:\n${link}\n\nIf you did not sign up, ignore this email.\n`,
    html: layout(subject, [intro, 'If you did not sign up, ignore this email.'], {
      href: link,
      label: 'Verify my email',
    }),
  };
}

export function passwordResetEmail(to: string, link: string): EmailMessage {
  const subject = 'Reset your password';
  const intro = 'We received a request to reset the password of your account.';
  return {
    to,
    subject,
    text: `${intro}\n\nOpen this link to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this email.\n`,
    html: layout(subject, [intro, 'If you did not ask for this, ignore this email.'], {
      href: link,
      label: 'Choose a new password',
    }),
  };
}

/** Auth0's organization invitation email ("User Invitation" template): the link accepts it. */
export function invitationEmail(
  to: string,
  input: { inviter: string; organization: string; link: string },
): EmailMessage {
  const subject = `You've been invited to join ${input.organization}`;
  const intro = `${input.inviter} has invited you to join ${input.organization}.`;
  const note = 'If you were not expecting this invitation, you can ignore this email.';
  return {
    to,
    subject,
    text: `${intro}\n\nOpen this link to accept the invitation:\n${input.link}\n\n${note}\n`,
    html: layout(subject, [intro, note], { href: input.link, label: 'Accept invitation' }),
  };
}
