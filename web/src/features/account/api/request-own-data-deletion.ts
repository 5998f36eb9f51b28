import {
  type DataDeletionAccepted,
  type DataDeletionRequest,
  dataDeletionAccepted,
} from '#contracts/data-deletion.ts';
import { api } from '#web/lib/api-client.ts';

// Erasure requests go to the same public route as the public form (anyone may ask about an
// address; the emailed confirmation guards against a request in someone else's name). It is called
// with the public client: the access token goes only to routes that check it
// (tests/web/api-routes.test.ts).
export function requestOwnDataDeletion(request: DataDeletionRequest): Promise<DataDeletionAccepted> {
  return api.post('/api/data-deletion-requests', request, dataDeletionAccepted);
}
