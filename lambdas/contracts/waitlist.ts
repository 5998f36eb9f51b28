import * as z from 'zod/mini';
import { emailAddress } from './common.ts';

export const waitlistRequest = z.strictObject({ email: emailAddress });
export type WaitlistRequest = z.infer<typeof waitlistRequest>;
