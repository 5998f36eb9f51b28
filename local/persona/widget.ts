import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PersonaEmulator } from './emulator.ts';
import {
  escapeHtml,
  HttpError,
  parseJsonBody,
  readBody,
  scriptJson,
  sendHtml,
  sendJson,
} from './http-util.ts';
import type { InquiryRecord } from './store.ts';
import type { Outcome } from './types.ts';

/** The SDK's InquiryError shape ({status, code, message}). */
interface WidgetError {
  status: number;
  code: 'application_error' | 'invalid_config' | 'inactive_template' | 'unauthenticated' | 'unknown';
  message: string;
}

interface WidgetConfig {
  containerId: string | null;
  templateId: string | null;
  templateVersionId: string | null;
  targetOrigin: string | null;
  inquiry: { id: string; status: string; referenceId: string | null; sessionToken: string | null } | null;
  error: WidgetError | null;
}

const OUTCOMES: Record<string, Outcome> = {
  approve: 'approve',
  decline: 'decline',
  review: 'review',
  fail: 'fail',
};

function asOrigin(value: string | null): string | null {
  if (value === null || !URL.canParse(value)) return null;
  const origin = new URL(value).origin;
  return origin === 'null' ? null : origin;
}

/** Works out what the widget shows for the SDK's query parameters (may create an inquiry in template mode). */
function resolve(
  emulator: PersonaEmulator,
  params: URLSearchParams,
): Pick<WidgetConfig, 'inquiry' | 'error'> {
  const fail = (status: number, code: WidgetError['code'], message: string) => ({
    inquiry: null,
    error: { status, code, message },
  });
  const environmentId = params.get('environment-id');
  if (environmentId !== null && environmentId !== emulator.options.environmentId) {
    return fail(400, 'invalid_config', `Unknown environment ${environmentId}`);
  }
  const inquiryId = params.get('inquiry-id');
  const templateId = params.get('inquiry-template-id') ?? params.get('template-id');
  let inquiry: InquiryRecord | undefined;
  if (inquiryId !== null) {
    inquiry = emulator.store.get(inquiryId);
    if (inquiry === undefined) return fail(404, 'invalid_config', `Inquiry ${inquiryId} not found`);
    if (inquiry.redactedAt !== null) return fail(404, 'invalid_config', `Inquiry ${inquiryId} was redacted`);
    const token = params.get('session-token');
    const needsToken = inquiry.status !== 'created' || token !== null;
    if (needsToken && (token === null || token !== inquiry.sessionToken)) {
      return fail(409, 'unauthenticated', 'Session token is missing or no longer valid; resume the inquiry');
    }
  } else if (templateId !== null) {
    if (templateId !== emulator.options.templateId) {
      return fail(422, 'inactive_template', `Inquiry template ${templateId} not found`);
    }
    inquiry = emulator.createInquiry({ templateId, referenceId: params.get('reference-id') });
  } else {
    return fail(400, 'invalid_config', 'Either inquiry-template-id or inquiry-id must be given');
  }
  return {
    error: null,
    inquiry: {
      id: inquiry.id,
      status: inquiry.status,
      referenceId: inquiry.referenceId,
      sessionToken: inquiry.sessionToken,
    },
  };
}

export async function handleWidget(
  emulator: PersonaEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (url.pathname === '/widget' && (req.method === 'GET' || req.method === 'HEAD')) {
    const params = url.searchParams;
    const config: WidgetConfig = {
      containerId: params.get('container-id'),
      templateId: params.get('inquiry-template-id') ?? params.get('template-id'),
      templateVersionId: params.get('inquiry-template-version-id'),
      targetOrigin: asOrigin(params.get('message-target-origin') ?? params.get('iframe-origin')),
      ...resolve(emulator, params),
    };
    sendHtml(res, 200, widgetHtml(config));
    return true;
  }
  // Calls from the widget page itself, authenticated by the inquiry's session token.
  const match = /^\/widget\/api\/inquiries\/([^/]+)\/(start|outcome)$/.exec(url.pathname);
  if (match === null || req.method !== 'POST') return false;
  const [, id = '', action] = match;
  const body = parseJsonBody(await readBody(req));
  const inquiry = emulator.getInquiry(id);
  if (inquiry.sessionToken === null || body.sessionToken !== inquiry.sessionToken) {
    throw new HttpError(409, 'Unauthenticated', 'Session token is missing or no longer valid');
  }
  let reported: string = inquiry.status;
  if (action === 'start') {
    emulator.start(inquiry);
  } else {
    const outcome = OUTCOMES[String(body.outcome)];
    if (outcome === undefined)
      throw new HttpError(400, 'Bad request', 'outcome must be approve, decline, review or fail');
    reported = emulator.applyOutcome(inquiry, outcome);
  }
  sendJson(res, 200, {
    inquiryId: inquiry.id,
    status: inquiry.status,
    reportedStatus: reported,
    sessionToken: inquiry.sessionToken,
    fields: inquiry.fields,
  });
  return true;
}

function widgetHtml(config: WidgetConfig): string {
  const inquiry = config.inquiry;
  const details =
    inquiry === null
      ? `<p role="alert" id="error">${escapeHtml(config.error?.message ?? 'Unknown error')}</p>`
      : `<dl>
      <dt>Inquiry</dt><dd id="inquiry-id">${escapeHtml(inquiry.id)}</dd>
      <dt>Reference id</dt><dd>${escapeHtml(inquiry.referenceId ?? '(none)')}</dd>
      <dt>Status</dt><dd id="inquiry-status">${escapeHtml(inquiry.status)}</dd>
    </dl>`;
  const open = inquiry !== null && (inquiry.status === 'created' || inquiry.status === 'pending');
  const actions =
    inquiry === null
      ? ''
      : open
        ? `<section aria-labelledby="outcome-heading">
      <h2 id="outcome-heading">Pick an outcome</h2>
      <div class="buttons">
        <button type="button" data-outcome="approve">Approve</button>
        <button type="button" data-outcome="decline">Decline</button>
        <button type="button" data-outcome="review">Needs review</button>
        <button type="button" data-outcome="fail">Fail</button>
      </div>
    </section>`
        : `<p>This inquiry is already finished.</p>
    <button type="button" id="done">Close</button>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Persona (local emulator)</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 1.5rem; color: #111; background: #fff; }
  h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.05rem; }
  .note { color: #555; font-size: .85rem; margin-top: 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; word-break: break-all; }
  dt { font-weight: 600; }
  .buttons { display: grid; gap: .5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: 6px; border: 1px solid #0f2b72; background: #0f2b72; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #0f2b72; }
  button:disabled { opacity: .5; cursor: wait; }
  button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  [role="alert"] { color: #b91c1c; }
</style>
</head>
<body>
<main>
  <h1>Verify your identity</h1>
  <p class="note">Local Persona emulator: no documents are collected. Choose the result this inquiry should get.</p>
  ${details}
  ${actions}
  <p id="message" role="status" aria-live="polite"></p>
  <button type="button" class="secondary" id="cancel">Cancel</button>
</main>
<script type="application/json" id="config">${scriptJson(config)}</script>
<script>${widgetScript}</script>
</body>
</html>`;
}

// Runs inside the iframe; speaks the persona SDK's postMessage protocol to the embedding page.
const widgetScript = `
(() => {
  const cfg = JSON.parse(document.getElementById('config').textContent);
  const inquiry = cfg.inquiry;
  const embedded = window.parent !== window && cfg.targetOrigin !== null;
  const message = document.getElementById('message');
  let started = inquiry !== null && inquiry.status !== 'created';
  let finished = false;

  function post(name, extra) {
    if (!embedded) return;
    const data = { containerId: cfg.containerId, name: name };
    if (cfg.templateId) data.templateId = cfg.templateId;
    if (cfg.templateVersionId) data.templateVersionId = cfg.templateVersionId;
    if (inquiry) data.inquiryId = inquiry.id;
    Object.assign(data, extra || {});
    window.parent.postMessage(data, cfg.targetOrigin);
  }

  async function call(action, body) {
    const response = await fetch('/widget/api/inquiries/' + encodeURIComponent(inquiry.id) + '/' + action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(Object.assign({ sessionToken: inquiry.sessionToken }, body || {})),
    });
    const json = await response.json();
    if (!response.ok) {
      const detail = json.errors && json.errors[0] ? (json.errors[0].details || json.errors[0].title) : 'HTTP ' + response.status;
      const error = new Error(detail);
      error.status = response.status;
      throw error;
    }
    return json;
  }

  function setStatus(text) {
    const el = document.getElementById('inquiry-status');
    if (el) el.textContent = text;
  }

  function reportError(error) {
    message.textContent = 'Error: ' + error.message;
    post('error', { error: { status: error.status || 0, code: error.status === 409 ? 'unauthenticated' : 'unknown', message: error.message } });
  }

  async function start() {
    if (started || finished || !inquiry) return;
    started = true;
    try {
      const result = await call('start');
      inquiry.sessionToken = result.sessionToken;
      setStatus(result.status);
      post('start', { metadata: { inquiryId: inquiry.id } });
    } catch (error) {
      started = false;
      reportError(error);
    }
  }

  async function choose(outcome, buttons) {
    if (finished) return;
    buttons.forEach((b) => { b.disabled = true; });
    message.textContent = 'Submitting...';
    try {
      const result = await call('outcome', { outcome: outcome });
      finished = true;
      setStatus(result.status);
      message.textContent = 'Done: the inquiry is now ' + result.status + '.';
      post('complete', { metadata: { inquiryId: inquiry.id, status: result.reportedStatus, fields: result.fields } });
    } catch (error) {
      buttons.forEach((b) => { b.disabled = false; });
      reportError(error);
    }
  }

  function cancel() {
    post('exit', { metadata: inquiry && !finished ? { inquiryId: inquiry.id, sessionToken: inquiry.sessionToken } : {} });
    message.textContent = 'Cancelled.';
  }

  const buttons = Array.from(document.querySelectorAll('button[data-outcome]'));
  buttons.forEach((button) => {
    button.addEventListener('click', () => choose(button.dataset.outcome, buttons));
  });
  document.getElementById('cancel').addEventListener('click', cancel);
  const done = document.getElementById('done');
  if (done) {
    done.addEventListener('click', () => {
      post('complete', { metadata: { inquiryId: inquiry.id, status: inquiry.status, fields: {} } });
    });
  }

  window.addEventListener('message', (event) => {
    if (!embedded || event.source !== window.parent || event.origin !== cfg.targetOrigin) return;
    const action = event.data && event.data.action;
    if (action === 'open') start();
    else if (action === 'exit') cancel();
  });

  post('load');
  if (cfg.error) {
    post('error', { error: cfg.error });
  } else {
    post('ready', { metadata: { preferredDimensions: { maximumWidth: '400px', maximumHeight: '650px' } } });
    if (!embedded) start();
  }
})();
`;
