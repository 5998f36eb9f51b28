import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { optionalEnv, requireEnv } from '#lambdas/config.ts';
import type { EmailMessage, Mailer } from '#lambdas/domain/ports.ts';

export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
    private readonly configurationSet?: string,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              Html: { Data: message.html, Charset: 'UTF-8' },
            },
          },
        },
        ...(this.configurationSet ? { ConfigurationSetName: this.configurationSet } : {}),
      }),
    );
  }
}

export function createMailer(): Mailer {
  return new SesMailer(new SESv2Client({}), requireEnv('sesSender'), optionalEnv('sesConfigurationSet'));
}
