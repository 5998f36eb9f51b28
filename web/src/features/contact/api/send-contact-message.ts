import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { ContactRequest } from '#contracts/contact.ts';
import { api } from '#web/lib/api-client.ts';

export function sendContactMessage(request: ContactRequest): Promise<SuccessResponse> {
  return api.post('/api/contact', request, successResponse);
}
