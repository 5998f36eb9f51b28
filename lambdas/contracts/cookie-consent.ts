import * as z from 'zod/mini';
import { successResponse } from './common.ts';
import { route } from './route.ts';

// POST /api/cookie-consents: a visitor's cookie choices, as proof of consent. `consentId` is a
// random id the banner keeps in the browser; `revision` names the banner/policy text it showed.

export const cookieConsentRequest = z.strictObject({
  consentId: z.uuid('consentId must be a UUID'),
  analytics: z.boolean('analytics must be true or false'),
  marketing: z.boolean('marketing must be true or false'),
  personalization: z.boolean('personalization must be true or false'),
  revision: z
    .string('revision is required')
    .check(
      z.trim(),
      z.minLength(1, 'revision is required'),
      z.maxLength(64, 'revision must be at most 64 characters'),
      z.regex(/^[\w.:-]+$/, 'revision may contain letters, digits, dots, colons, dashes and underscores'),
    ),
});
export type CookieConsentRequest = z.infer<typeof cookieConsentRequest>;

export const createCookieConsentRoute = route('CreateCookieConsent', {
  auth: 'public',
  body: cookieConsentRequest,
  response: successResponse,
  successStatus: 201,
  problems: [],
});
