import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { VerificationAuditTrailResponse } from '#contracts/admin-audit.ts';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { listAllVerifications } from '#tests/helpers/admin-queue.ts';
import {
  identityVerificationConsent,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { passwordToken } from '#tests/helpers/tokens.ts';

// Issue 27, item 4, through the web origin (ADR 0080): with four-eyes on, approving a defense
// organization needs two different admins. The first admin's approval is a proposal (the person
// stays pending), the same admin cannot confirm it, a second admin's approval decides it; a
// reversal needs two admins as well. The admin trail holds each step.

const stack = inject('stack');
const api = webApi(stack);

const control = async (name: string) => {
  const response = await fetch(`${stack.api}/__local/${name}`, { method: 'POST' });
  expect(response.status).toBe(200);
};

let first: string;
let second: string;
beforeAll(async () => {
  const admins = stack.accounts.filter((account) => account.role === 'admin');
  if (admins.length < 2) throw new Error('stack.json needs two admin accounts');
  const tokens = await Promise.all(
    admins.slice(0, 2).map((admin) => passwordToken(stack, admin.email, admin.password)),
  );
  first = tokens[0] ?? '';
  second = tokens[1] ?? '';
  await control('four-eyes/on');
});
afterAll(() => control('four-eyes/off'));

/** A defense organization's responsible person, verified by Persona as needing review. */
async function defenseUserInReview() {
  const user = await registeredUser(stack, 'Northwatch Four Eyes', 'defense');
  const consent = await api('/api/consents', {
    method: 'POST',
    token: user.token,
    body: JSON.stringify(identityVerificationConsent),
  });
  expect(consent.status).toBe(201);
  const inquiry = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
  expect(inquiry.status).toBe(200);
  const { inquiryId } = (await inquiry.json()) as { inquiryId: string };
  const enrolled = { ...user, inquiryId };
  expect((await sendWebhook(stack, personaEvent('inquiry.completed', enrolled, new Date()))).status).toBe(
    200,
  );
  await settleEvents(stack);
  return enrolled;
}

const decide = (userId: string, token: string, body: Record<string, string>) =>
  api(`/api/admin/verifications/${encodeURIComponent(userId)}/decision`, { method: 'POST', token, body });

async function statusOf(user: { token: string }) {
  const me = await api('/api/me', { token: user.token });
  return ((await me.json()) as { kycStatus: string }).kycStatus;
}

describe('four-eyes decisions', () => {
  it('needs a second, different admin to approve a defense organization, and to reverse the decision', async () => {
    const user = await defenseUserInReview();
    const approve = { decision: 'approved', reasonCode: 'identity_confirmed', reason: 'Passport checked' };

    // One admin is not enough: a proposal, and the person stays pending.
    const proposed = await decide(user.userId, first, approve);
    expect(proposed.status).toBe(200);
    expect(await proposed.json()).toMatchObject({ kycStatus: 'pending', outcome: 'proposed' });
    expect(await statusOf(user)).toBe('pending');
    const listed = (await listAllVerifications((path) => api(path, { token: second }), 'pending')).find(
      (item) => item.userId === user.userId,
    );
    expect(listed?.proposal).toMatchObject({ decision: 'approved', reasonCode: 'identity_confirmed' });

    // The same admin twice is refused, and changes nothing.
    const again = await decide(user.userId, first, approve);
    expect(again.status).toBe(403);
    expect(again.headers.get('content-type')).toBe(problemContentType);
    expect(await again.json()).toMatchObject({ type: problemTypes.secondReviewerRequired, status: 403 });
    expect(await statusOf(user)).toBe('pending');

    // A second admin makes it so.
    const confirmed = await decide(user.userId, second, approve);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ kycStatus: 'approved', outcome: 'decided' });
    await settleEvents(stack);
    expect(await statusOf(user)).toBe('approved');

    // Reversing it needs two as well.
    const reject = { decision: 'rejected', reasonCode: 'document_unreadable', reason: 'The MRZ is cut off' };
    expect(await (await decide(user.userId, second, reject)).json()).toMatchObject({ outcome: 'proposed' });
    expect(await statusOf(user)).toBe('approved');
    expect(await (await decide(user.userId, first, reject)).json()).toMatchObject({ outcome: 'decided' });
    await settleEvents(stack);
    expect(await statusOf(user)).toBe('rejected');

    const trail = await api(`/api/admin/verifications/${encodeURIComponent(user.userId)}/audit-trail`, {
      token: first,
    });
    const { entries } = (await trail.json()) as VerificationAuditTrailResponse;
    expect(entries.map((entry) => entry.action)).toEqual([
      'verification_proposed',
      'verification_decided',
      'verification_proposed',
      'verification_reversed',
    ]);
    expect(entries[1]?.details.proposedBy).toBe(entries[0]?.actorId);
    expect(entries[1]?.actorId).not.toBe(entries[0]?.actorId);
  });
});
