import { type DataExport, dataExport } from '#contracts/data-export.ts';
import type { ApiClient } from '#web/lib/api-client.ts';

// GET /api/me/export (ADR 0076): everything held about the caller, as the JSON document the
// contract describes; 5 a day (429 `rateLimited` with Retry-After past them).
export function exportMyData(api: ApiClient): Promise<DataExport> {
  return api.call('ExportMyData', { response: dataExport });
}
