import * as z from 'zod/mini';
import { route } from './route.ts';

// POST /api/me/verification-email (docs/design.md section 3; ADR 0059). Apart from ./me.ts, whose
// module is in the signed-in shell: only the verification-required screen reads this answer, so the
// shell carries none of its schema (ADR 0088 made that room for its route keys).

export const verificationEmailResponse = z.union([
  z.strictObject({ success: z.literal(true) }),
  z.strictObject({ success: z.literal(true), alreadyVerified: z.literal(true) }),
]);
export type VerificationEmailResponse = z.infer<typeof verificationEmailResponse>;

/** 202 when an email is sent; 200 with `alreadyVerified` when there is nothing to do. */
export const sendVerificationEmailRoute = route('SendVerificationEmail', {
  auth: 'user',
  response: verificationEmailResponse,
  successStatus: 202,
  problems: ['rateLimited', 'serviceUnavailable'],
});
