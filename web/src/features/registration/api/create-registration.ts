import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { RegistrationRequest } from '#contracts/registration.ts';
import { api } from '#web/lib/api-client.ts';

export function createRegistration(request: RegistrationRequest): Promise<SuccessResponse> {
  return api.post('/api/registrations', request, successResponse);
}
