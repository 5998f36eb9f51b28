import * as z from 'zod/mini';

// The business-email rule of registration, contact and investor inquiries. Pure and shared:
// the web forms and the handlers apply the same rule with the same messages.

export const businessEmailMessages = {
  required: 'Business email is required',
  invalid: 'Please enter a valid email address',
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

// Text, one at sign, a domain with a dot, no whitespace anywhere.
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isPersonalEmailDomain(domain: string): boolean {
  const normalised = domain.toLowerCase().replace(/\.$/, '');
  return personalEmailDomains.some((listed) => normalised === listed || normalised.endsWith(`.${listed}`));
}

/** The message a person should see for this address, or undefined when it is acceptable. */
export function businessEmailProblem(value: string): string | undefined {
  if (value.trim() === '') return businessEmailMessages.required;
  const email = value.trim();
  if (!emailShape.test(email) || email.length > 254) return businessEmailMessages.invalid;
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
