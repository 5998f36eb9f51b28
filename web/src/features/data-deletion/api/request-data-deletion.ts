import {
  type DataDeletionAccepted,
  type DataDeletionConfirmation,
  type DataDeletionPending,
  type DataDeletionRequest,
  dataDeletionAccepted,
  dataDeletionPending,
} from '#contracts/data-deletion.ts';
import { api } from '#web/lib/api-client.ts';

export function requestDataDeletion(request: DataDeletionRequest): Promise<DataDeletionPending> {
  return api.post('/api/data-deletion-requests', request, dataDeletionPending);
}

/** The emailed link's token: confirms the request and starts the 30 days. */
export function confirmDataDeletion(request: DataDeletionConfirmation): Promise<DataDeletionAccepted> {
  return api.post('/api/data-deletion-requests/confirm', request, dataDeletionAccepted);
}
