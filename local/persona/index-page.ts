import type { PersonaEmulator } from './emulator.ts';
import { escapeHtml } from './http-util.ts';

/** A developer's overview: inquiries (newest first) with widget links, and recent webhook deliveries. */
export function indexHtml(emulator: PersonaEmulator): string {
  const { templateId, environmentId } = emulator.options;
  const inquiries = emulator.store.list().sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  const deliveries = emulator.webhooks.deliveries().slice(-50).reverse();
  const inquiryRows = inquiries
    .map((inq) => {
      const widget = `/widget?inquiry-id=${encodeURIComponent(inq.id)}${
        inq.sessionToken === null ? '' : `&session-token=${encodeURIComponent(inq.sessionToken)}`
      }`;
      return `<tr><td><code>${escapeHtml(inq.id)}</code></td><td>${escapeHtml(inq.status)}</td><td>${escapeHtml(
        inq.referenceId ?? '',
      )}</td><td>${escapeHtml(inq.createdAt)}</td><td>${escapeHtml(inq.updatedAt)}</td><td>${
        inq.redactedAt === null
          ? `<a href="${escapeHtml(widget)}">Open widget for ${escapeHtml(inq.id)}</a>`
          : 'redacted'
      }</td></tr>`;
    })
    .join('\n');
  const deliveryRows = deliveries
    .map(
      (d) =>
        `<tr><td>${escapeHtml(d.at)}</td><td>${escapeHtml(d.eventName)}</td><td><code>${escapeHtml(
          d.eventId,
        )}</code></td><td><code>${escapeHtml(d.inquiryId)}</code></td><td>${escapeHtml(d.url)}</td><td>${d.attempt}</td><td>${
          d.ok ? 'ok' : 'failed'
        } ${escapeHtml(String(d.status ?? d.error ?? ''))}</td></tr>`,
    )
    .join('\n');
  const subscribers = emulator.webhooks.subscribers
    .map((s) => `<li>${escapeHtml(s.url)} (${escapeHtml(s.enabledEvents.join(', '))})</li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Persona emulator</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 2rem; font-size: .9rem; }
  th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
  th { background: #f3f4f6; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
</style>
</head>
<body>
<main>
  <h1>Persona emulator</h1>
  <p>Template <code>${escapeHtml(templateId)}</code>, environment <code>${escapeHtml(environmentId)}</code>.</p>
  <h2>Webhook subscribers</h2>
  <ul>${subscribers}</ul>
  <h2>Inquiries (${inquiries.length})</h2>
  <table>
    <caption class="visually-hidden">Inquiries, newest first</caption>
    <thead><tr><th scope="col">Id</th><th scope="col">Status</th><th scope="col">Reference id</th><th scope="col">Created</th><th scope="col">Updated</th><th scope="col">Widget</th></tr></thead>
    <tbody>${inquiryRows || '<tr><td colspan="6">No inquiries yet.</td></tr>'}</tbody>
  </table>
  <h2>Recent webhook deliveries</h2>
  <table>
    <caption class="visually-hidden">Last 50 delivery attempts, newest first</caption>
    <thead><tr><th scope="col">At</th><th scope="col">Event</th><th scope="col">Event id</th><th scope="col">Inquiry</th><th scope="col">URL</th><th scope="col">Attempt</th><th scope="col">Result</th></tr></thead>
    <tbody>${deliveryRows || '<tr><td colspan="7">No deliveries yet.</td></tr>'}</tbody>
  </table>
</main>
</body>
</html>`;
}
