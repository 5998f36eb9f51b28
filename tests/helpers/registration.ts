import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { StackInfo } from '#local/stack.ts';
import { mailbox, passwordToken } from './tokens.ts';

// A person who registered as a real one does, through the API, on the local stack.

/** A person who registered through the API and set a password with the emailed link. */
export async function registeredUser(
  stack: StackInfo,
  organizationName = 'Orbit Bio',
  organizationType: 'commercial' | 'defense' | 'academic' | 'government' = 'commercial',
) {
  const email = `me-${randomBytes(6).toString('hex')}@orbit-bio.example`;
  const response = await fetch(`${stack.web}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      responsibleName: 'Grace Hopper',
      responsibleTitle: 'Director',
      responsibleEmail: email,
      responsiblePhone: '+1 555 0100',
      organizationName,
      organizationUrl: 'https://orbit-bio.example',
      organizationType,
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    }),
  });
  expect(response.status).toBe(201);
  // The account work (and so the login email) follows the answer (ADR 0033).
  await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
  const mail = (await mailbox(stack)).find((m) => m.destination.to.includes(email));
  const ticketUrl = /(http:\/\/\S+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(mail?.body.text ?? '')?.[1];
  const ticket = new URL(ticketUrl ?? 'http://missing/').searchParams.get('ticket') ?? '';
  const password = `Chosen-${randomBytes(8).toString('hex')}`;
  await fetch(`${stack.idp.issuer}lo/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, password, confirm: password }).toString(),
    redirect: 'manual',
  });
  const token = await passwordToken(stack, email, password);
  const sub = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
  return { email, password, token, userId: sub };
}
