import {
  type DataDeletionAccepted,
  dataDeletionAccepted,
  type OwnDataDeletionRequest,
} from '#contracts/data-deletion.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// A `user` route: the access token names the account, and so the address, and confirms the request
// at once (a public request waits for its emailed link). `api` is the session's client.
export function requestOwnDataDeletion(
  api: ApiClient,
  request: OwnDataDeletionRequest,
): Promise<DataDeletionAccepted> {
  return api.call('CreateOwnDataDeletionRequest', request, { response: dataDeletionAccepted });
}
