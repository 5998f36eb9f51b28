import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, parseJsonBody, readBody, sendJson } from './http-util.ts';

// The "Persona never delivered" knob (issue 11, item 7; ADR 0038): webhooks for chosen inquiries
// (or for all) are never sent, as when Persona's retries ran out, so tests can prove the
// reconciliation job. Separate from the delivery knobs in webhooks.ts on purpose.
//
//   GET    /__local/persona/webhook-drops   -> { all, inquiryIds, dropped }
//   POST   /__local/persona/webhook-drops   { inquiryId } | { all: true } -> the same shape
//   DELETE /__local/persona/webhook-drops   -> clears every drop (not the `dropped` count)

export const webhookDropsPath = '/__local/persona/webhook-drops';

export class WebhookDrops {
  private all = false;
  private readonly inquiryIds = new Set<string>();
  /** Events not sent so far, for tests to see the knob worked. */
  private dropped: { eventId: string; name: string; inquiryId: string }[] = [];

  /** Whether the event is dropped; remembers it if so. */
  drop(event: { id: string; name: string; inquiryId: string }): boolean {
    if (!this.all && !this.inquiryIds.has(event.inquiryId)) return false;
    this.dropped.push({ eventId: event.id, name: event.name, inquiryId: event.inquiryId });
    return true;
  }

  view() {
    return { all: this.all, inquiryIds: [...this.inquiryIds], dropped: this.dropped.map((d) => ({ ...d })) };
  }

  /** Handles the control path; returns false for any other path. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== webhookDropsPath) return false;
    const method = req.method ?? 'GET';
    if (method === 'POST') {
      const body = parseJsonBody(await readBody(req));
      if (body.all === true) this.all = true;
      else if (typeof body.inquiryId === 'string' && body.inquiryId !== '')
        this.inquiryIds.add(body.inquiryId);
      else throw new HttpError(400, 'Bad request', 'Send { "inquiryId": "inq_..." } or { "all": true }');
    } else if (method === 'DELETE') {
      this.all = false;
      this.inquiryIds.clear();
    } else if (method !== 'GET') {
      throw new HttpError(405, 'Method not allowed', `${method} ${webhookDropsPath}`);
    }
    sendJson(res, 200, this.view());
    return true;
  }
}
