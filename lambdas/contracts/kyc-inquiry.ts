import * as z from 'zod/mini';
import { route } from './route.ts';

// POST /api/me/kyc/inquiry: no request body (the reference id is the caller's token `sub`, never
// something the browser sends). `sessionToken` is present when the inquiry can be opened or
// continued in the Persona widget; it is absent when the inquiry is already submitted and waits
// for Persona's (or a reviewer's) decision.
export const startKycInquiryResponse = z.object({
  inquiryId: z.string(),
  sessionToken: z.optional(z.string()),
});
export type StartKycInquiryResponse = z.infer<typeof startKycInquiryResponse>;

export const startKycInquiryRoute = route('StartKycInquiry', {
  auth: 'user',
  response: startKycInquiryResponse,
  successStatus: 200,
  problems: [
    'emailNotVerified',
    'consentRequired',
    'identityAlreadyVerified',
    'verificationClosed',
    'concurrentChange',
    'verificationProviderUnavailable',
    'rateLimited',
  ],
});
