import { type DataDeletionCancelled, dataDeletionCancelled } from '#contracts/data-deletion.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// Withdraws the person's own pending deletion request (ADR 0076): only theirs, only before the
// operator starts carrying it out (409 `deletionNotCancellable` then).
export function cancelOwnDataDeletion(api: ApiClient, requestId: string): Promise<DataDeletionCancelled> {
  return api.call('CancelOwnDataDeletionRequest', { params: { requestId }, response: dataDeletionCancelled });
}
