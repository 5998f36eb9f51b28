import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  businessEmail,
  businessEmailMessages,
  businessEmailProblem,
  emailShape,
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

describe('the business-email rule on hostile input (ADR 0071)', () => {
  afterEach(() => vi.restoreAllMocks());

  // A 64 KiB body (the routes' limit) of `a@....@`: 2.6 s of backtracking with the old pattern.
  const hostile = `a@${'.'.repeat(64 * 1024 - 3)}@`;

  /** Every regex run while `act` runs: `test`, `exec` and what goes through them (match, replace). */
  const regexRunsDuring = (act: () => void) => {
    const test = vi.spyOn(RegExp.prototype, 'test');
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    act();
    return test.mock.calls.length + exec.mock.calls.length;
  };

  it('refuses an over-long address with the length message before any pattern runs', () => {
    let problem: string | undefined;
    expect(regexRunsDuring(() => (problem = businessEmailProblem(hostile)))).toBe(0);
    expect(problem).toBe(businessEmailMessages.tooLong);
    expect(businessEmailMessages.tooLong).toBe('Email address must be at most 254 characters');
  });

  it('gives the length issue, and only it, through the schema the handlers parse with', () => {
    const result = registrationRequest.safeParse({ ...valid, responsibleEmail: hostile });
    expect(result.success).toBe(false);
    expect(result.success ? [] : fieldErrors(result.error.issues)).toEqual([
      { field: 'responsibleEmail', message: businessEmailMessages.tooLong },
    ]);
  });

  it('still runs the pattern on an address of 254 characters, and refuses 255', () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(at254).toHaveLength(254);
    expect(regexRunsDuring(() => businessEmailProblem(at254))).toBeGreaterThan(0);
    expect(businessEmailProblem(at254)).toBeUndefined();
    expect(businessEmailProblem(`a${at254}`)).toBe(businessEmailMessages.tooLong);
  });

  it('accepts and refuses exactly what the old, quadratic pattern did on short text', () => {
    const old = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '.', '@', ' ', '-'), maxLength: 12 }),
        (text) => {
          expect(emailShape.test(text)).toBe(old.test(text));
        },
      ),
      { numRuns: 5000 },
    );
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
