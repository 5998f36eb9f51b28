import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kycApprovedEmail, kycRejectedEmail } from '#lambdas/domain/emails/kyc-emails.ts';
import { recipientKey, recipientMailbox } from '#lambdas/domain/emails/recipient-limit.ts';
import {
  accountExistsEmail,
  loginInstructionsEmail,
  registrationNotificationEmail,
  registrationWelcomePath,
} from '#lambdas/domain/emails/registration-emails.ts';
import { paths } from '#web/config/paths.ts';

describe('email texts', () => {
  it('keep the link of the login instructions escaped in the HTML and whole in the text', () => {
    const mail = loginInstructionsEmail({
      to: 'a@b.example',
      ticketUrl: 'https://tenant.example/lo/reset?ticket=abc&x=1#',
      ticketTtlDays: 3,
      appUrl: 'https://app.example/',
      locale: 'en',
    });
    expect(mail.html).toContain('href="https://tenant.example/lo/reset?ticket=abc&amp;x=1#"');
    expect(mail.text).toContain('https://tenant.example/lo/reset?ticket=abc&x=1#');
    expect(mail.text).toContain('https://app.example/auth/login');
  });

  it('say in the login instructions that the password link confirms the address, and promise no verification step', () => {
    const mail = loginInstructionsEmail({
      to: 'a@b.example',
      ticketUrl: 'https://tenant.example/lo/reset?ticket=abc#',
      ticketTtlDays: 3,
      appUrl: 'https://app.example',
      organizationId: 'org_abc',
      locale: 'en',
    });
    expect(mail.text).toContain('Setting it also confirms this email address');
    expect(mail.text).not.toMatch(/verify your email/i);
    expect(mail.text).toContain('https://app.example/auth/login?organization=org_abc');
  });

  it('send the password link back to the welcome page, through the organization', () => {
    expect(registrationWelcomePath('org_abc')).toBe(`${paths.registrationSuccess.path}?organization=org_abc`);
    expect(registrationWelcomePath(undefined)).toBe(paths.registrationSuccess.path);
  });

  it('fold an address to the mailbox it reaches, and nothing more', () => {
    expect(recipientMailbox(' Victim+News@Company.Example ')).toBe('victim@company.example');
    expect(recipientMailbox('j.doe+a+b@googlemail.com')).toBe('jdoe@gmail.com');
    expect(recipientMailbox('J.Doe@GMAIL.com')).toBe('jdoe@gmail.com');
    expect(recipientMailbox('j.doe@company.example')).toBe('j.doe@company.example');
    expect(recipientMailbox('j.doe@mail.gmail.com')).toBe('j.doe@mail.gmail.com');
    expect(recipientMailbox('+tag@company.example')).toBe('+tag@company.example');
    expect(recipientMailbox('...@gmail.com')).toBe('...@gmail.com');
    expect(recipientKey('Victim+1@company.example')).toBe(recipientKey('victim@company.example'));
    expect(recipientKey('victim@company.example')).not.toBe(recipientKey('victim@company2.example'));
  });

  it('never let any organization name open a tag in the operations email', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const mail = registrationNotificationEmail({
          to: 'ops@example.com',
          userId: 'auth0|1',
          organizationName: name,
          organizationType: 'academic',
          occurredAt: '2026-11-21T07:00:00.000Z',
        });
        const body = mail.html.slice(mail.html.indexOf('<body>'));
        const tags = body.match(/<[a-z/][^>]*>/gi) ?? [];
        expect(tags.every((tag) => /^<\/?(body|h1|p|br|a href="[^"]*"|html)>$/i.test(tag))).toBe(true);
        expect(mail.subject).not.toMatch(/[\r\n]/);
      }),
    );
  });

  it('name the decision and its next step', () => {
    const approved = kycApprovedEmail({
      to: 'a@b.example',
      name: 'Ada',
      appUrl: 'https://app.example',
      locale: 'en',
    });
    const rejected = kycRejectedEmail({
      to: 'a@b.example',
      name: 'Ada',
      appUrl: 'https://app.example',
      locale: 'en',
      reasonCode: 'document_unreadable',
    });
    expect(approved.text).toContain('https://app.example/dashboard');
    expect(rejected.text).toContain('https://app.example/contact');
    expect(rejected.text).toContain('The reason: The photo of the document was unreadable.');
    expect(rejected.text).toContain('Verify again');
    expect(rejected.text).not.toContain('do not reply');
    expect(
      accountExistsEmail({ to: 'a@b.example', appUrl: 'https://app.example', locale: 'en' }).text,
    ).toContain('No new account was created');
  });
});
