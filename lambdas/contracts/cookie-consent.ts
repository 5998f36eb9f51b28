import * as z from 'zod/mini';
import { successResponse } from './common.ts';
import { route } from './route.ts';

// POST /api/cookie-consents: a visitor's cookie choices, as proof of consent. `consentId` is a
// random id the banner keeps in the browser; `revision` names the banner/policy text it showed.

export const cookieConsentMessages = {
  consentId: 'consentId must be a UUID',
  analytics: 'analytics must be true or false',
  marketing: 'marketing must be true or false',
  personalization: 'personalization must be true or false',
  revisionRequired: 'revision is required',
  revisionLong: 'revision must be at most 64 characters',
  revisionShape: 'revision may contain letters, digits, dots, colons, dashes and underscores',
} as const;

export const cookieConsentRequest = z.strictObject({
  consentId: z.uuid(cookieConsentMessages.consentId),
  analytics: z.boolean(cookieConsentMessages.analytics),
  marketing: z.boolean(cookieConsentMessages.marketing),
  personalization: z.boolean(cookieConsentMessages.personalization),
  revision: z
    .string(cookieConsentMessages.revisionRequired)
    .check(
      z.trim(),
      z.minLength(1, cookieConsentMessages.revisionRequired),
      z.maxLength(64, cookieConsentMessages.revisionLong),
      z.regex(/^[\w.:-]+$/, cookieConsentMessages.revisionShape),
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
