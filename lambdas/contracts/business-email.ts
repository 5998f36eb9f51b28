import * as z from 'zod/mini';

// The business-email rule of registration, contact and investor inquiries. Pure and shared:
// the web forms and the handlers apply the same rule with the same messages.

export const businessEmailMessages = {
  required: 'Business email is required',
  invalid: 'Please enter a valid email address',
  tooLong: 'Email address must be at most 254 characters',
  personal: 'Personal email addresses (Gmail, Yahoo, etc.) are not allowed. Please use your business email.',
} as const;

/** Personal webmail domains; a listed domain or any subdomain of it is refused. */
export const personalEmailDomains = [
  // Google
  'gmail.com',
  'googlemail.com',
  // Yahoo
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.de',
  'yahoo.fr',
  'ymail.com',
  // Microsoft
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.de',
  'outlook.com',
  'live.com',
  'msn.com',
  // AOL
  'aol.com',
  // Apple
  'icloud.com',
  'me.com',
  'mac.com',
  // Proton
  'protonmail.com',
  'proton.me',
  'pm.me',
  // Zoho
  'zoho.com',
  // Yandex
  'yandex.com',
  'yandex.ru',
  // GMX
  'gmx.de',
  'gmx.net',
  'gmx.com',
] as const;

/** RFC 5321's limit on a forward path; checked before the shape, so the pattern sees short text only. */
export const maxEmailLength = 254;

/**
 * Text, one at sign, a domain with a dot that is neither its first nor its last character, no
 * whitespace anywhere. Linear (ADR 0071): the domain's first character, then no dot up to the first
 * dot after it, so there is one way to split the domain; `[^\s@]+\.[^\s@]+` had n ways and a
 * quadratic failure on `a@....@`.
 */
export const emailShape = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

export function isPersonalEmailDomain(domain: string): boolean {
  const normalised = domain.toLowerCase().replace(/\.$/, '');
  return personalEmailDomains.some((listed) => normalised === listed || normalised.endsWith(`.${listed}`));
}

/** The message a person should see for this address, or undefined when it is acceptable. */
export function businessEmailProblem(value: string): string | undefined {
  if (value.trim() === '') return businessEmailMessages.required;
  const email = value.trim();
  if (email.length > maxEmailLength) return businessEmailMessages.tooLong;
  if (!emailShape.test(email)) return businessEmailMessages.invalid;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (isPersonalEmailDomain(domain)) return businessEmailMessages.personal;
  return undefined;
}

export const businessEmail = z.string(businessEmailMessages.required).check(
  z.superRefine((value, ctx) => {
    const message = businessEmailProblem(value);
    if (message) ctx.addIssue({ code: 'custom', message, input: value });
  }),
  z.trim(),
);
