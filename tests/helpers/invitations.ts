import { expect } from 'vitest';
import type { StackInfo } from '#local/stack.ts';
import { mailbox } from '#tests/helpers/tokens.ts';

// An organization invitation's email (ADR 0084), as the local provider sends it through the local
// SES: the last one to an address, and its link to the web's login route.

/** The invitation email Auth0 (the local provider) sent to `email` last: its link. */
export async function invitationLink(stack: StackInfo, email: string) {
  await expect
    .poll(async () => (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email)).length, {
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
  const mails = (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email));
  const mail = mails[mails.length - 1];
  const href = /(http:\/\/\S+\/auth\/login\?invitation=[^\s"<]+)/.exec(mail?.body.text ?? '')?.[1];
  if (!href) throw new Error(`no invitation link in: ${mail?.body.text}`);
  return { mail, link: new URL(href.replaceAll('&amp;', '&')) };
}
