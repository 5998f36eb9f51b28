import { describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { createTestUser, mailbox } from '#tests/helpers/tokens.ts';

// A deletion request the person can see (issue 26, item 5; ADR 0076), through the web origin:
// GET /api/me carries the pending request, a second request answers it, and the person cancels it.

const stack = inject('stack');
const db = stackDb(stack);

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${stack.web}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
const me = async (token: string) =>
  (await (await api('/api/me', token)).json()) as { deletionRequest: Record<string, unknown> | null };
const request = (token: string) =>
  api('/api/me/data-deletion-requests', token, { method: 'POST', body: '{}' });
const cancel = (token: string, requestId: string) =>
  api(`/api/me/data-deletion-requests/${requestId}`, token, { method: 'DELETE' });

describe("the signed-in person's own deletion request", () => {
  it('shows in GET /api/me, answers a second request with the same id, and can be cancelled once', async () => {
    const user = await createTestUser(stack);
    expect((await me(user.token)).deletionRequest).toBeNull();

    const first = await request(user.token);
    expect(first.status).toBe(202);
    const { requestId, dueBy } = (await first.json()) as { requestId: string; dueBy: string };
    expect((await me(user.token)).deletionRequest).toEqual({
      requestId,
      status: 'received',
      requestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      dueBy,
      cancellable: true,
    });

    const second = await request(user.token);
    expect(second.status).toBe(202);
    expect(await second.json()).toEqual({ requestId, dueBy });
    // One receipt: the second request sent nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      (await mailbox(stack)).filter((mail) => mail.destination.to.includes(user.email.toLowerCase())),
    ).toHaveLength(1);

    const other = await createTestUser(stack);
    const foreign = await cancel(other.token, requestId);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { type: string }).type).toBe(problemTypes.deletionRequestNotFound);

    const cancelled = await cancel(user.token, requestId);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ requestId, status: 'cancelled' });
    expect((await me(user.token)).deletionRequest).toBeNull();
    const stored = (await db.scan('Submissions')).find((item) => item.pk === `DELETION#${requestId}`);
    expect(stored).toMatchObject({ status: 'cancelled', userId: user.userId });
    expect((await cancel(user.token, requestId)).status).toBe(404);

    const third = (await (await request(user.token)).json()) as { requestId: string };
    expect(third.requestId).not.toBe(requestId);
  });

  it('refuses to cancel a request the operator has started (409)', async () => {
    const user = await createTestUser(stack);
    const { requestId } = (await (await request(user.token)).json()) as { requestId: string };
    const { DynamoDbSubmissionStore } = await import('#lambdas/adapters/dynamodb-submission-store.ts');
    await new DynamoDbSubmissionStore(db.client, db.tableName('Submissions')).markInProgress(requestId, {
      userIds: [user.userId],
      planned: [],
      startedAt: new Date().toISOString(),
    });
    expect((await me(user.token)).deletionRequest).toMatchObject({
      status: 'in_progress',
      cancellable: false,
    });
    const refused = await cancel(user.token, requestId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { type: string }).type).toBe(problemTypes.deletionNotCancellable);
  });
});
