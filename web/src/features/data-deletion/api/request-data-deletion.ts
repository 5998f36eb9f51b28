import {
  type DataDeletionAccepted,
  type DataDeletionRequest,
  dataDeletionAccepted,
} from '#contracts/data-deletion.ts';
import { api } from '#web/lib/api-client.ts';

export function requestDataDeletion(request: DataDeletionRequest): Promise<DataDeletionAccepted> {
  return api.post('/api/data-deletion-requests', request, dataDeletionAccepted);
}
