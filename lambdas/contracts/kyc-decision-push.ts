import * as z from 'zod/mini';
import { kycStatus } from './kyc.ts';

// What travels on a user's decision channel (kyc-channel.ts; ADR 0060).

/**
 * What a push says: only the new status and when it was decided (its version: later wins). The
 * screen then asks `GET /api/me` (refreshMe), so nothing on the channel is more than the screen
 * could already read, and a forged or stale push changes nothing it shows.
 */
export const kycDecisionPush = z.object({
  status: kycStatus,
  occurredAt: z.string().check(z.maxLength(40)),
});
export type KycDecisionPush = z.infer<typeof kycDecisionPush>;
