import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { WaitlistRequest } from '#contracts/waitlist.ts';
import { api } from '../../../lib/api-client.ts';

export function joinWaitlist(request: WaitlistRequest): Promise<SuccessResponse> {
  return api.post('/api/waitlist', request, successResponse);
}
