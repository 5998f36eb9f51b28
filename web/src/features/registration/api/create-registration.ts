import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { RegistrationRequest } from '#contracts/registration.ts';
import { api } from '#web/lib/public-api.ts';

export function createRegistration(request: RegistrationRequest): Promise<SuccessResponse> {
  return api.call('CreateRegistration', request, { response: successResponse });
}
