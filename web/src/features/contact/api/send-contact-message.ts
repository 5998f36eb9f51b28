import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { ContactRequest } from '#contracts/contact.ts';
import { api } from '#web/lib/public-api.ts';

export function sendContactMessage(request: ContactRequest): Promise<SuccessResponse> {
  return api.call('CreateContactMessage', request, { response: successResponse });
}
