import {
  type DataDeletionAccepted,
  type DataDeletionConfirmation,
  type DataDeletionPending,
  type DataDeletionRequest,
  dataDeletionAccepted,
  dataDeletionPending,
} from '#contracts/data-deletion.ts';
import { api } from '#web/lib/public-api.ts';

export function requestDataDeletion(request: DataDeletionRequest): Promise<DataDeletionPending> {
  return api.call('CreateDataDeletionRequest', request, { response: dataDeletionPending });
}

/** The emailed link's token: confirms the request and starts the 30 days. */
export function confirmDataDeletion(request: DataDeletionConfirmation): Promise<DataDeletionAccepted> {
  return api.call('ConfirmDataDeletionRequest', request, { response: dataDeletionAccepted });
}
