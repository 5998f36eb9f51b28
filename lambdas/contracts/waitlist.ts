import * as z from 'zod/mini';
import { emailAddress, successResponse } from './common.ts';
import { route } from './route.ts';

export const waitlistRequest = z.strictObject({ email: emailAddress });
export type WaitlistRequest = z.infer<typeof waitlistRequest>;

export const createWaitlistEntryRoute = route('CreateWaitlistEntry', {
  auth: 'public',
  body: waitlistRequest,
  response: successResponse,
  successStatus: 201,
  problems: [],
});
