import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPersona, startPersona } from '#local/persona/index.ts';
import { type Json, type Receiver, startReceiver, waitFor } from '#tests/fixtures/persona-sdk/receiver.ts';
import { chromiumPath, launchBrowser } from '#tests/helpers/browser.ts';
import { freePort } from '#tests/helpers/free-port.ts';

const apiKey = 'persona_sandbox_local_sdk_key';
const templateId = 'itmpl_localSdkTemplate000001';
const environmentId = 'env_localSdk00000000000001';
const entry = fileURLToPath(new URL('../../fixtures/persona-sdk/entry.ts', import.meta.url));

interface RecordedEvent {
  type: 'ready' | 'complete' | 'cancel' | 'error' | 'event';
  data?: Json;
}

let persona: RunningPersona;
let personaPort: number;
let receiver: Receiver;
let pageServer: Server;
let pageOrigin: string;
let browser: Browser;

beforeAll(async () => {
  // apt may still be installing chromium when the suite starts.
  await waitFor(() => existsSync(chromiumPath), 240_000, `${chromiumPath} to exist`);
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SDK test</title></head>
<body><h1>SDK test page</h1><script>
const q = new URLSearchParams(location.search);
window.personaTest = { inquiryId: q.get('inquiryId'), environmentId: q.get('environmentId'), customHost: q.get('customHost') };
if (q.get('sessionToken')) window.personaTest.sessionToken = q.get('sessionToken');
</script><script src="/bundle.js"></script></body></html>`;
  pageServer = createServer((req, res) => {
    const isBundle = req.url === '/bundle.js';
    res.writeHead(200, { 'Content-Type': isBundle ? 'text/javascript' : 'text/html; charset=utf-8' });
    res.end(isBundle ? script : html);
  });
  const pagePort = await freePort();
  await new Promise<void>((resolve) => pageServer.listen(pagePort, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${pagePort}`;

  receiver = await startReceiver();
  personaPort = await freePort();
  persona = await startPersona({
    port: personaPort,
    apiKey,
    templateId,
    environmentId,
    webhook: { url: receiver.url, secret: 'wbhsec_local_sdk_secret' },
    log: false,
  });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await persona?.close();
  await receiver?.close();
  await new Promise<void>((resolve) => (pageServer ? pageServer.close(() => resolve()) : resolve()));
});

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${persona.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

async function createInquiry(referenceId: string): Promise<{ id: string; token: string }> {
  const json = await api('POST', '/api/v1/inquiries', {
    data: { attributes: { 'inquiry-template-id': templateId, 'reference-id': referenceId } },
  });
  return { id: json.data.id, token: json.meta['session-token'] };
}

async function openSdk(inquiryId: string, sessionToken?: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const q = new URLSearchParams({ inquiryId, environmentId, customHost: `localhost:${personaPort}` });
  if (sessionToken !== undefined) q.set('sessionToken', sessionToken);
  await page.goto(`${pageOrigin}/?${q}`);
  return page;
}

async function waitForEvent(page: Page, type: RecordedEvent['type']): Promise<RecordedEvent> {
  const handle = await page.waitForFunction(
    (t) =>
      (window as unknown as { personaEvents?: RecordedEvent[] }).personaEvents?.find(
        (e: RecordedEvent) => e.type === t,
      ),
    type,
    { timeout: 15_000 },
  );
  return (await handle.jsonValue()) as RecordedEvent;
}

/** The SDK slides the iframe in with a CSS animation; clicks during it can miss the moving target. */
async function opened(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.persona-widget__overlay[style*="block"]') !== null &&
      document.getAnimations().every((a) => a.playState === 'finished'),
    undefined,
    { timeout: 15_000 },
  );
}

const events = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { personaEvents?: RecordedEvent[] }).personaEvents as RecordedEvent[],
  );
const frame = (page: Page) => page.frameLocator('iframe.persona-widget__iframe');

describe('official persona SDK against the emulator widget', { timeout: 30_000 }, () => {
  it('fires onReady, then onComplete with the inquiry id and status after "Approve"', async () => {
    const { id, token } = await createInquiry('auth0|sdk-approve');
    const page = await openSdk(id, token);
    await waitForEvent(page, 'ready');
    await frame(page).getByRole('heading', { name: 'Verify your identity' }).waitFor({ state: 'visible' });
    await opened(page);
    await frame(page).getByRole('button', { name: 'Approve' }).click();
    const complete = await waitForEvent(page, 'complete');
    expect(complete.data.inquiryId).toBe(id);
    expect(complete.data.status).toBe('completed');
    expect(complete.data.fields).toEqual({});
    // onEvent saw the SDK's lifecycle messages too.
    const names = (await events(page)).filter((e) => e.type === 'event').map((e) => e.data.name);
    expect(names).toEqual(expect.arrayContaining(['load', 'ready', 'start', 'complete']));
    expect((await events(page)).some((e) => e.type === 'error')).toBe(false);
    const inquiry = await api('GET', `/api/v1/inquiries/${id}`);
    expect(inquiry.data.attributes.status).toBe('approved');
    await page.context().close();
  });

  it('fires onCancel with the inquiry id and session token after "Cancel"', async () => {
    const { id, token } = await createInquiry('auth0|sdk-cancel');
    const page = await openSdk(id, token);
    await waitForEvent(page, 'ready');
    // Opening the widget started the inquiry.
    await waitFor(() =>
      persona.deliveries().some((d) => d.inquiryId === id && d.eventName === 'inquiry.started'),
    );
    await opened(page);
    await frame(page).getByRole('button', { name: 'Cancel' }).click();
    const cancel = await waitForEvent(page, 'cancel');
    expect(cancel.data).toEqual({ inquiryId: id, sessionToken: token });
    expect((await events(page)).some((e) => e.type === 'complete')).toBe(false);
    const inquiry = await api('GET', `/api/v1/inquiries/${id}`);
    expect(inquiry.data.attributes.status).toBe('pending');
    await page.context().close();
  });

  it('fires onError for an unknown inquiry id', async () => {
    const page = await openSdk('inq_doesNotExist0000000000');
    const error = await waitForEvent(page, 'error');
    expect(error.data.code).toBe('invalid_config');
    expect((await events(page)).some((e) => e.type === 'ready')).toBe(false);
    await page.context().close();
  });

  it('fires onError when resuming with a superseded session token', async () => {
    const { id, token } = await createInquiry('auth0|sdk-stale');
    const resumed = await api('POST', `/api/v1/inquiries/${id}/resume`);
    expect(resumed.meta['session-token']).not.toBe(token);
    const stale = await openSdk(id, token);
    expect((await waitForEvent(stale, 'error')).data.code).toBe('unauthenticated');
    await stale.context().close();
    const fresh = await openSdk(id, resumed.meta['session-token']);
    await waitForEvent(fresh, 'ready');
    await fresh.context().close();
  });
});
