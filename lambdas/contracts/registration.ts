import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { successResponse } from './common.ts';
import { organizationType } from './organization.ts';
import { route } from './route.ts';

// POST /api/registrations (docs/design.md section 3), with the product's exact validation messages.

const text = (min: number, message: string, max = 200) =>
  z
    .string(message)
    .check(z.trim(), z.minLength(min, message), z.maxLength(max, `Must be at most ${max} characters`));

const agreement = (message: string) => z.literal(true, message);

export const registrationMessages = {
  responsibleName: 'Name must have at least 2 characters',
  responsibleTitle: 'Title must have at least 2 characters',
  responsiblePhone: 'Phone number must have at least 5 characters',
  organizationName: 'Organization name must have at least 2 characters',
  organizationUrl: 'Please enter a valid website URL',
  termsAgreed: 'You must agree to the terms of service',
  privacyAgreed: 'You must agree to the privacy policy',
  nonHarmAgreed: 'You must agree to the non-harmful use policy',
} as const;

export const registrationRequest = z.strictObject({
  responsibleName: text(2, registrationMessages.responsibleName),
  responsibleTitle: text(2, registrationMessages.responsibleTitle),
  responsibleEmail: businessEmail,
  responsiblePhone: text(5, registrationMessages.responsiblePhone, 40),
  organizationName: text(2, registrationMessages.organizationName),
  organizationUrl: z.string(registrationMessages.organizationUrl).check(
    z.trim(),
    z.maxLength(2048, registrationMessages.organizationUrl),
    z.url({
      protocol: /^https?$/,
      hostname: z.regexes.domain,
      error: registrationMessages.organizationUrl,
    }),
  ),
  organizationType,
  termsAgreed: agreement(registrationMessages.termsAgreed),
  privacyAgreed: agreement(registrationMessages.privacyAgreed),
  nonHarmAgreed: agreement(registrationMessages.nonHarmAgreed),
  /** Honeypot: people leave it empty; a filled one is answered 201 and nothing is created. */
  website: z.optional(z.string().check(z.maxLength(2048))),
});
export type RegistrationRequest = z.infer<typeof registrationRequest>;

export const createRegistrationRoute = route('CreateRegistration', {
  auth: 'public',
  body: registrationRequest,
  response: successResponse,
  successStatus: 201,
  problems: ['serviceUnavailable'],
});
