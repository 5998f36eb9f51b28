import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  businessEmail,
  businessEmailMessages,
  businessEmailProblem,
  personalEmailDomains,
} from '#contracts/business-email.ts';
import { registrationMessages, registrationRequest } from '#contracts/registration.ts';
import { fieldErrors } from '#lambdas/http/http-handler.ts';

const valid = {
  responsibleName: 'Ada Lovelace',
  responsibleTitle: 'Chief Scientist',
  responsibleEmail: 'ada@analytical-engines.example',
  responsiblePhone: '+44 20 7946 0000',
  organizationName: 'Analytical Engines Ltd',
  organizationUrl: 'https://analytical-engines.example',
  organizationType: 'commercial',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
  website: '',
};

const errorsFor = (body: unknown) => {
  const result = registrationRequest.safeParse(body);
  return result.success ? [] : fieldErrors(result.error.issues);
};

describe('the business-email rule', () => {
  it('lists 26 personal webmail domains', () => {
    expect(new Set(personalEmailDomains).size).toBe(26);
  });

  it.each([
    ['', businessEmailMessages.required],
    ['   ', businessEmailMessages.required],
    ['ada', businessEmailMessages.invalid],
    ['ada@', businessEmailMessages.invalid],
    ['ada@example', businessEmailMessages.invalid],
    ['ada lovelace@example.com', businessEmailMessages.invalid],
    ['ada@exa mple.com', businessEmailMessages.invalid],
    ['@example.com', businessEmailMessages.invalid],
    ['ada@gmail.com', businessEmailMessages.personal],
    ['Ada@GMAIL.COM', businessEmailMessages.personal],
    ['ada@mail.yahoo.co.uk', businessEmailMessages.personal],
    ['ada@proton.me', businessEmailMessages.personal],
    ['ada@analytical-engines.example', undefined],
    ['ada@notgmail.com', undefined],
    ['ada@gmail.com.evil.example', undefined],
  ])('%j -> %s', (email, message) => {
    expect(businessEmailProblem(email)).toBe(message);
  });

  it('refuses every listed domain and any subdomain of it, in any case', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...personalEmailDomains),
        fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 2 }),
        fc.stringMatching(/^[a-z0-9._-]{1,20}$/),
        fc.boolean(),
        (domain, subdomains, local, upper) => {
          const host = [...subdomains, domain].join('.');
          const email = `${local}@${upper ? host.toUpperCase() : host}`;
          return businessEmailProblem(email) === businessEmailMessages.personal;
        },
      ),
    );
  });

  it('accepts well-formed addresses on other domains', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9._-]{1,20}$/),
        fc.stringMatching(/^[a-z0-9-]{3,12}$/),
        fc.constantFrom('com', 'de', 'org', 'bio', 'co.uk'),
        (local, name, tld) => {
          fc.pre(!personalEmailDomains.some((listed) => `${name}.${tld}`.endsWith(listed)));
          return businessEmailProblem(`${local}@${name}.${tld}`) === undefined;
        },
      ),
    );
  });

  it('trims the accepted address', () => {
    expect(businessEmail.parse('  ada@analytical-engines.example ')).toBe('ada@analytical-engines.example');
  });
});

describe('registrationRequest', () => {
  it('accepts a complete registration', () => {
    expect(errorsFor(valid)).toEqual([]);
  });

  it.each([
    ['responsibleName', 'A', registrationMessages.responsibleName],
    ['responsibleTitle', ' x ', registrationMessages.responsibleTitle],
    ['responsiblePhone', '1234', registrationMessages.responsiblePhone],
    ['organizationName', '', registrationMessages.organizationName],
    ['organizationUrl', 'not a url', registrationMessages.organizationUrl],
    ['organizationUrl', 'ftp://analytical-engines.example', registrationMessages.organizationUrl],
    ['responsibleEmail', 'ada@yahoo.de', businessEmailMessages.personal],
    ['termsAgreed', false, registrationMessages.termsAgreed],
    ['privacyAgreed', false, registrationMessages.privacyAgreed],
    ['nonHarmAgreed', 'true', registrationMessages.nonHarmAgreed],
  ])('rejects %s = %j with the exact message', (field, value, message) => {
    expect(errorsFor({ ...valid, [field]: value })).toEqual([{ field, message }]);
  });

  it('reports a missing field with its own message', () => {
    const { termsAgreed: _omitted, ...rest } = valid;
    expect(errorsFor(rest)).toEqual([{ field: 'termsAgreed', message: registrationMessages.termsAgreed }]);
  });

  it.each(['app_metadata', 'role', 'email_verified', 'connection', 'password'])(
    'rejects the privileged field %s (no mass assignment)',
    (field) => {
      expect(errorsFor({ ...valid, [field]: 'x' })).toEqual([
        { field, message: 'This field is not allowed.' },
      ]);
    },
  );
});
