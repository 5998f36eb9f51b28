import {
  type ServiceAction,
  type ServiceRequestAccepted,
  type ServiceRequestView,
  serviceRequestAccepted,
  serviceRequestList,
} from '#contracts/service-request.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// The quick actions' calls (ADR 0088): the organization's service requests, which must be the
// token's `org_id` (ADR 0083).

export async function listServiceRequests(
  api: ApiClient,
  organizationId: string,
  signal?: AbortSignal,
): Promise<ServiceRequestView[]> {
  const answer = await api.call('ListServiceRequests', {
    params: { organizationId },
    response: serviceRequestList,
    signal,
  });
  return answer.requests;
}

export function requestService(
  api: ApiClient,
  organizationId: string,
  action: ServiceAction,
): Promise<ServiceRequestAccepted> {
  return api.call(
    'CreateServiceRequest',
    { action },
    { params: { organizationId }, response: serviceRequestAccepted },
  );
}
