import { describe, expect, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { contactRequest } from '#contracts/contact.ts';
import { cookieConsentRequest } from '#contracts/cookie-consent.ts';
import { dataDeletionRequest } from '#contracts/data-deletion.ts';
import { investorInquiryRequest } from '#contracts/investor-inquiry.ts';
import {
  cookieConsentExpiry,
  recordCookieConsent,
  sendContactMessage,
  submitInvestorInquiry,
} from '#lambdas/domain/submissions/public-forms.ts';
import { fieldErrors } from '#lambdas/http/http-handler.ts';
import { fixedClock, MemorySubmissionStore, sequentialIds } from './fakes.ts';

const errorsOf = (
  schema: { safeParse(input: unknown): { success: boolean; error?: unknown } },
  body: unknown,
) => {
  const result = schema.safeParse(body) as
    | { success: true }
    | { success: false; error: { issues: Parameters<typeof fieldErrors>[0] } };
  return result.success ? [] : fieldErrors(result.error.issues);
};

const contact = {
  name: 'Ada Lovelace',
  email: 'Ada@Analytical-Engines.example',
  organization: 'Analytical Engines',
  message: 'We would like a demo of the forecasting service.',
};

describe('the contact and investor contracts', () => {
  it('refuse a personal address on both forms with the product message', () => {
    for (const schema of [investorInquiryRequest, contactRequest]) {
      expect(errorsOf(schema, { ...contact, email: 'ada@gmail.com' })).toContainEqual({
        field: 'email',
        message: businessEmailMessages.personal,
      });
    }
  });

  it('asks a contact for the organization, but not an investor (name and email suffice)', () => {
    for (const organization of [undefined, '', '   ']) {
      expect(errorsOf(contactRequest, { ...contact, organization })).toContainEqual({
        field: 'organization',
        message: 'Please enter your organization',
      });
      expect(errorsOf(investorInquiryRequest, { ...contact, organization, message: '' })).toEqual([]);
    }
    expect(errorsOf(investorInquiryRequest, { ...contact, organization: 'x'.repeat(201) })).toContainEqual({
      field: 'organization',
      message: 'Organization must be at most 200 characters',
    });
  });

  it('asks for a name, then for at least two characters', () => {
    expect(errorsOf(investorInquiryRequest, { ...contact, name: undefined })).toContainEqual({
      field: 'name',
      message: 'Please enter your name',
    });
    expect(errorsOf(investorInquiryRequest, { ...contact, name: ' ' })).toContainEqual({
      field: 'name',
      message: 'Please enter your name',
    });
    expect(errorsOf(contactRequest, { ...contact, name: 'A' })).toContainEqual({
      field: 'name',
      message: 'Name must have at least 2 characters',
    });
  });

  it('needs a contact message of at least 10 characters and at most 5000', () => {
    expect(errorsOf(contactRequest, { ...contact, message: 'Too short' })).toContainEqual({
      field: 'message',
      message: 'Please enter a message of at least 10 characters',
    });
    expect(errorsOf(contactRequest, { ...contact, message: 'x'.repeat(5001) })).toContainEqual({
      field: 'message',
      message: 'Message must be at most 5000 characters',
    });
    expect(errorsOf(contactRequest, contact)).toEqual([]);
  });

  it('refuses unknown fields on every public form', () => {
    for (const schema of [
      investorInquiryRequest,
      contactRequest,
      dataDeletionRequest,
      cookieConsentRequest,
    ]) {
      expect(errorsOf(schema, { role: 'admin' })).toContainEqual({
        field: 'role',
        message: 'This field is not allowed.',
      });
    }
  });

  it('accepts a personal address on a deletion request: anyone may ask to erase their data', () => {
    expect(errorsOf(dataDeletionRequest, { email: 'someone@gmail.com' })).toEqual([]);
  });

  it('accepts a cookie choice only with a UUID and three booleans', () => {
    const valid = {
      consentId: '3f1c2a4e-8b6d-4e2f-9a1b-5c7d9e0f1a2b',
      analytics: true,
      marketing: false,
      personalization: false,
      revision: '2025-06-08',
    };
    expect(errorsOf(cookieConsentRequest, valid)).toEqual([]);
    expect(errorsOf(cookieConsentRequest, { ...valid, consentId: 'not-a-uuid' })).toContainEqual({
      field: 'consentId',
      message: 'consentId must be a UUID',
    });
    expect(errorsOf(cookieConsentRequest, { ...valid, analytics: 'yes' })).toContainEqual({
      field: 'analytics',
      message: 'analytics must be true or false',
    });
  });
});

describe('submitting the investor and contact forms', () => {
  it('stores an investor inquiry with the normalised address, so erasure can find it', async () => {
    const store = new MemorySubmissionStore();
    const submit = submitInvestorInquiry({
      store,
      clock: fixedClock('2026-03-01T10:00:00.000Z'),
      newId: sequentialIds('inq'),
    });
    await submit(investorInquiryRequest.parse(contact));
    expect(store.all()).toEqual([
      {
        kind: 'investor_inquiry',
        id: 'inq-1',
        name: 'Ada Lovelace',
        email: 'ada@analytical-engines.example',
        organization: 'Analytical Engines',
        message: contact.message,
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    ]);
  });

  it('stores an investor inquiry from someone without an organization', async () => {
    const store = new MemorySubmissionStore();
    const submit = submitInvestorInquiry({
      store,
      clock: fixedClock('2026-03-01T10:00:00.000Z'),
      newId: sequentialIds('inq'),
    });
    await submit(investorInquiryRequest.parse({ name: 'Ada Lovelace', email: contact.email, message: '' }));
    expect(store.all()).toEqual([expect.objectContaining({ kind: 'investor_inquiry', organization: '' })]);
  });

  it('stores every contact message separately, even the same text twice', async () => {
    const store = new MemorySubmissionStore();
    const send = sendContactMessage({
      store,
      clock: fixedClock('2026-03-01T10:00:00.000Z'),
      newId: sequentialIds(),
    });
    await send(contactRequest.parse(contact));
    await send(contactRequest.parse(contact));
    expect(store.all().map((item) => item.kind)).toEqual(['contact_message', 'contact_message']);
    expect(
      store.all().every((item) => 'email' in item && item.email === 'ada@analytical-engines.example'),
    ).toBe(true);
  });
});

describe('recording a cookie choice', () => {
  const choice = cookieConsentRequest.parse({
    consentId: '3f1c2a4e-8b6d-4e2f-9a1b-5c7d9e0f1a2b',
    analytics: true,
    marketing: false,
    personalization: true,
    revision: '2025-06-08',
  });

  it('keeps the /24 network, not the address, and expires 13 months later', async () => {
    const store = new MemorySubmissionStore();
    const record = recordCookieConsent({ store, clock: fixedClock('2026-01-31T12:00:00.000Z') });
    await record(choice, { sourceIp: '203.0.113.77' });
    const [item] = store.all();
    expect(item).toMatchObject({ kind: 'cookie_consent', ipAddress: '203.0.113.0', analytics: true });
    expect(JSON.stringify(item)).not.toContain('203.0.113.77');
    expect(item && 'expiresAt' in item && item.expiresAt).toBe(Date.parse('2027-03-03T12:00:00.000Z') / 1000);
  });

  it('stores a resent choice (same consent id and revision) once', async () => {
    const store = new MemorySubmissionStore();
    const record = recordCookieConsent({ store, clock: fixedClock('2026-01-01T00:00:00.000Z') });
    expect(await record(choice, { sourceIp: '198.51.100.1' })).toEqual({ stored: true });
    expect(await record(choice, { sourceIp: '198.51.100.1' })).toEqual({ stored: false });
    await record({ ...choice, revision: '2026-01-01' }, { sourceIp: '198.51.100.1' });
    expect(store.all()).toHaveLength(2);
  });

  it('expires 13 calendar months after the choice', () => {
    expect(cookieConsentExpiry(new Date('2026-05-15T08:30:00.000Z'))).toBe(
      Date.parse('2027-06-15T08:30:00.000Z') / 1000,
    );
  });
});
