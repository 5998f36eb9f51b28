import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { escapeHtml } from './http-util.ts';

export interface MailerOptions {
  endpoint: string;
  region: string;
  from: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends the IdP's emails through (local) SES v2, like Auth0's email provider would. */
export class Mailer {
  readonly #client: SESv2Client;
  readonly #from: string;

  constructor(options: MailerOptions) {
    this.#client = new SESv2Client({
      endpoint: options.endpoint,
      region: options.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 2,
    });
    this.#from = options.from;
  }

  async send(mail: Mail): Promise<void> {
    await this.#client.send(
      new SendEmailCommand({
        FromEmailAddress: this.#from,
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: mail.text, Charset: 'UTF-8' },
              Html: { Data: mail.html, Charset: 'UTF-8' },
            },
          },
        },
      }),
    );
  }

  close(): void {
    this.#client.destroy();
  }
}

function layout(title: string, paragraphs: string[], link: { href: string; label: string }): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1a1a1a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p style="color:#555;font-size:13px">If the button does not work, copy this address into your browser: ${escapeHtml(link.href)}</p>
</body></html>`;
}

export function verificationEmail(to: string, link: string): Mail {
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

export function passwordResetEmail(to: string, link: string): Mail {
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
