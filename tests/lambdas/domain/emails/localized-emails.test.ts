import { describe, expect, it } from 'vitest';
import { decisionReasonCodes } from '#contracts/kyc-reasons.ts';
import { apiLocales } from '#contracts/locale.ts';
import { notifyKycDecision } from '#lambdas/domain/account/notify.ts';
import {
  dataDeletionConfirmationEmail,
  dataDeletionReceiptEmail,
} from '#lambdas/domain/emails/data-deletion.ts';
import { kycApprovedEmail, kycRejectedEmail, reasonMessage } from '#lambdas/domain/emails/kyc-emails.ts';
import { accountExistsEmail, loginInstructionsEmail } from '#lambdas/domain/emails/registration-emails.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { FakeDirectory, FakeMailer, FakeMarker, FakeProfiles } from '#tests/lambdas/domain/account/fakes.ts';

// Every email to a person, in English and in German (issue 28): the exact subjects, the language of
// the HTML part, and no English sentence left in the German one.

const appUrl = 'https://app.example';
const to = 'ada@helix-labs.example';

const emails = {
  loginInstructions: (locale: 'en' | 'de') =>
    loginInstructionsEmail({
      to,
      ticketUrl: 'https://tenant.example/lo/reset?ticket=abc#',
      ticketTtlDays: 3,
      appUrl,
      organizationId: 'org_abc',
      locale,
    }),
  accountExists: (locale: 'en' | 'de') => accountExistsEmail({ to, appUrl, locale }),
  kycApproved: (locale: 'en' | 'de') => kycApprovedEmail({ to, name: 'Ada', appUrl, locale }),
  kycRejected: (locale: 'en' | 'de') =>
    kycRejectedEmail({ to, name: 'Ada', appUrl, locale, reasonCode: 'document_unreadable' }),
  deletionConfirmation: (locale: 'en' | 'de') =>
    dataDeletionConfirmationEmail({
      to,
      requestId: 'req-1',
      appUrl,
      token: 'req-1.secret',
      confirmBy: '2026-11-29T07:30:00.000Z',
      locale,
    }),
  deletionReceipt: (locale: 'en' | 'de') =>
    dataDeletionReceiptEmail({ to, requestId: 'req-1', dueBy: '2026-12-27', name: 'Ada', locale }),
} satisfies Record<string, (locale: 'en' | 'de') => EmailMessage>;

const subjects: Record<keyof typeof emails, Record<'en' | 'de', string>> = {
  loginInstructions: { en: 'Your login instructions', de: 'Ihre Anleitung zur Anmeldung' },
  accountExists: { en: 'You already have an account', de: 'Sie haben bereits ein Konto' },
  kycApproved: { en: 'Your identity is verified', de: 'Ihre Identität ist bestätigt' },
  kycRejected: {
    en: 'Your identity verification was not approved',
    de: 'Ihre Identitätsprüfung wurde nicht genehmigt',
  },
  deletionConfirmation: {
    en: 'Confirm your data deletion request',
    de: 'Bestätigen Sie Ihre Anfrage zur Datenlöschung',
  },
  deletionReceipt: {
    en: 'We received your data deletion request (req-1)',
    de: 'Wir haben Ihre Anfrage zur Datenlöschung erhalten (req-1)',
  },
};

/** Words of our English texts that no German text of ours contains. */
const english = /\b(the|your|you|we|and|with|this|email)\b/i;

describe('emails to a person, in each language (issue 28)', () => {
  for (const [name, build] of Object.entries(emails) as [
    keyof typeof emails,
    (typeof emails)['accountExists'],
  ][]) {
    it(`${name}: the exact subject in English and German, the German one in German`, () => {
      for (const locale of apiLocales) expect(build(locale).subject).toBe(subjects[name][locale]);
      const german = build('de');
      // The text without our links and the address (English-looking URLs are not sentences).
      const words = german.text.replace(/https?:\S+/g, '').replaceAll(to, '');
      expect(words).not.toMatch(english);
      if (name !== 'deletionReceipt') expect(german.html).toContain('<html lang="de">');
    });
  }

  it('keep the links and facts the same in both languages', () => {
    for (const build of Object.values(emails)) {
      const links = (mail: EmailMessage) => mail.text.match(/https?:\S+/g) ?? [];
      expect(links(build('de'))).toEqual(links(build('en')));
    }
    expect(emails.loginInstructions('de').text).toContain('in 3 Tagen');
    expect(emails.loginInstructions('de').text).toContain(`Für ${to} wurde ein Konto angelegt.`);
    expect(emails.deletionConfirmation('de').text).toContain('vor 2026-11-29 07:30 UTC');
    expect(emails.deletionReceipt('de').text).toContain('spätestens bis zum 2026-12-27');
    expect(emails.deletionReceipt('de').text.startsWith('Guten Tag Ada,\n\nwir haben')).toBe(true);
  });

  it("give a rejection's reason in the email's language, for every reason", () => {
    expect(emails.kycRejected('de').text).toContain('Der Grund: Das Foto des Dokuments war nicht lesbar.');
    expect(emails.kycRejected('en').text).toContain('The reason: The photo of the document was unreadable.');
    for (const code of decisionReasonCodes) {
      expect(reasonMessage(code, 'de')).not.toMatch(english);
      expect(reasonMessage(code, 'de')).not.toBe(reasonMessage(code, 'en'));
    }
    expect(reasonMessage('no-such-code', 'de')).toBeNull();
  });
});

describe('the language of a decision email', () => {
  const detail = (userId: string) => ({
    userId,
    status: 'approved' as const,
    previousStatus: 'pending' as const,
    inquiryId: null,
    decidedBy: 'admin' as const,
    occurredAt: '2026-11-21T07:00:00.000Z',
  });

  it('is the latest choice, else the registration language, else English', async () => {
    const profiles = new FakeProfiles();
    const account = (userId: string) => ({ userId, email: `${userId}@b.example`, name: 'Pat' });
    await profiles.saveAccount({ ...account('chose-de'), registrationLocale: 'en' });
    (profiles.profiles.get('chose-de') as { preferredLocale?: string }).preferredLocale = 'de';
    await profiles.saveAccount({ ...account('chose-en'), registrationLocale: 'de' });
    (profiles.profiles.get('chose-en') as { preferredLocale?: string }).preferredLocale = 'en';
    await profiles.saveAccount({ ...account('registered-de'), registrationLocale: 'de' });
    await profiles.saveAccount(account('older'));
    const users = new FakeDirectory();
    const outside = users.add({ email: 'outside@b.example', name: 'Out' });
    const mailer = new FakeMailer();
    const notify = notifyKycDecision({
      profiles,
      users: async () => users,
      mailer,
      marker: new FakeMarker(),
      appUrl,
    });
    for (const userId of ['chose-de', 'chose-en', 'registered-de', 'older', outside.userId]) {
      expect(await notify(`evt-${userId}`, detail(userId))).toBe('sent');
    }
    expect(mailer.sent.map((m) => m.subject)).toEqual([
      'Ihre Identität ist bestätigt',
      'Your identity is verified',
      'Ihre Identität ist bestätigt',
      'Your identity is verified',
      'Your identity is verified',
    ]);
  });
});
