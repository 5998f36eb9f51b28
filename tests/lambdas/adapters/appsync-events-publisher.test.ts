import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppSyncEventsPublisher, AppSyncPublishError } from '#lambdas/adapters/appsync-events-publisher.ts';
import { pushKycDecision } from '#lambdas/domain/kyc/push-decision.ts';

// The publish request AppSync Events receives: its URL, body and SigV4 signature; and the push a
// status change becomes.

beforeEach(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE000000001');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
  vi.stubEnv('AWS_SESSION_TOKEN', 'session-token');
});
afterEach(() => vi.unstubAllEnvs());

function recordingFetch(
  answer = () => new Response('{"failed":[],"successful":[{"identifier":"x","index":0}]}'),
) {
  const requests: { url: string; headers: Record<string, string>; body: string }[] = [];
  const fetch = vi.fn(async (url: URL | string, init: RequestInit = {}) => {
    requests.push({
      url: String(url),
      headers: init.headers as Record<string, string>,
      body: String(init.body),
    });
    return answer();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests };
}

const change = {
  userId: 'auth0|abc',
  status: 'approved' as const,
  previousStatus: 'pending' as const,
  inquiryId: 'inq_1',
  decidedBy: 'admin' as const,
  occurredAt: '2026-11-28T10:00:00.000000Z',
  reasonCode: 'verified',
  changeId: 'c1',
};

describe('the AppSync Events publisher', () => {
  it("POSTs {channel, events: [JSON strings]} to https://<http domain>/event, SigV4-signed for appsync in the function's region", async () => {
    const { fetch, requests } = recordingFetch();
    const publisher = new AppSyncEventsPublisher({
      httpDomain: 'abc123.appsync-api.eu-central-1.amazonaws.com',
      region: 'eu-central-1',
      fetch,
    });
    await pushKycDecision({ realtime: publisher })(change);

    const [request] = requests;
    expect(request?.url).toBe('https://abc123.appsync-api.eu-central-1.amazonaws.com/event');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      channel: '/kyc-decisions/auth0Q7Cabc',
      events: [JSON.stringify({ status: 'approved', occurredAt: change.occurredAt })],
    });
    const headers = request?.headers ?? {};
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE000000001\/\d{8}\/eu-central-1\/appsync\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(headers['x-amz-security-token']).toBe('session-token');
    // Nothing a screen could not read from GET /api/me: no reason code, no inquiry, no actor.
    expect(request?.body).not.toMatch(/verified|inq_1|admin/);
  });

  it('signs the body: a changed body gives another signature', async () => {
    const { fetch, requests } = recordingFetch();
    const publisher = new AppSyncEventsPublisher({ httpDomain: 'h.example', region: 'eu-central-1', fetch });
    await publisher.publish('/kyc-decisions/a', [{ status: 'approved' }]);
    await publisher.publish('/kyc-decisions/a', [{ status: 'rejected' }]);
    const signature = (i: number) => requests[i]?.headers.authorization?.split('Signature=')[1];
    expect(signature(0)).not.toBe(signature(1));
  });

  it('fails (so the bus retries) on a refusal and on a 200 that lists failed events', async () => {
    const refused = new AppSyncEventsPublisher({
      httpDomain: 'h.example',
      region: 'eu-central-1',
      fetch: recordingFetch(() => new Response('{"errors":[]}', { status: 401 })).fetch,
    });
    await expect(refused.publish('/kyc-decisions/a', [{}])).rejects.toBeInstanceOf(AppSyncPublishError);
    const partial = new AppSyncEventsPublisher({
      httpDomain: 'h.example',
      region: 'eu-central-1',
      fetch: recordingFetch(() => new Response('{"failed":[{"index":0}],"successful":[]}')).fetch,
    });
    await expect(partial.publish('/kyc-decisions/a', [{}])).rejects.toBeInstanceOf(AppSyncPublishError);
  });

  it('publishes nothing for a user id the channel cannot carry', async () => {
    const { fetch, requests } = recordingFetch();
    const publisher = new AppSyncEventsPublisher({ httpDomain: 'h.example', region: 'eu-central-1', fetch });
    expect(await pushKycDecision({ realtime: publisher })({ ...change, userId: 'auth0|ä' })).toBe(
      'no_channel',
    );
    expect(requests).toEqual([]);
  });
});
