import { expect } from 'vitest';
import type { StackInfo } from '#local/stack.ts';
import { organizationLogin } from './organization-login.ts';
import {
  identityVerificationConsent,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from './persona-webhooks.ts';
import { registeredUser } from './registration.ts';

// An organization's people on the local stack, as the organization stack tests need them (ADR
// 0083, 0084): its registrant signed in through it, and a person verified by Persona.

/**
 * A registrant of an organization of `type`, and their token for a login through the organization
 * registration created (`orgToken`, with `org_id`), beside the plain one (`token`).
 */
export async function organizationFounder(
  stack: StackInfo,
  organizationName: string,
  type: 'commercial' | 'defense' | 'academic' | 'government' = 'defense',
) {
  const person = await registeredUser(stack, organizationName, type);
  const me = (await (await webApi(stack)('/api/me', { token: person.token })).json()) as {
    organizationId: string;
  };
  const { signIn, exchange } = organizationLogin(stack);
  const { back, verifier } = await signIn(
    { organization: me.organizationId },
    { email: person.email, password: person.password },
  );
  expect(back.searchParams.get('error')).toBeNull();
  const orgToken = (await exchange(back.searchParams.get('code'), verifier)).access_token ?? '';
  return { ...person, organizationId: me.organizationId, orgToken };
}

/** Consent, an inquiry, and Persona approving it: the webhook through the web origin. */
export async function approvedByPersona(stack: StackInfo, user: { token: string; userId: string }) {
  const api = webApi(stack);
  const consent = await api('/api/consents', {
    method: 'POST',
    token: user.token,
    body: JSON.stringify(identityVerificationConsent),
  });
  expect(consent.status).toBe(201);
  const inquiry = await api('/api/me/kyc/inquiry', { method: 'POST', token: user.token });
  expect(inquiry.status).toBe(200);
  const { inquiryId } = (await inquiry.json()) as { inquiryId: string };
  const event = personaEvent('inquiry.approved', { userId: user.userId, inquiryId }, new Date());
  expect((await sendWebhook(stack, event)).status).toBe(200);
  await settleEvents(stack);
}
