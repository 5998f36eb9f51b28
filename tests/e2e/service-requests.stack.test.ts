import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { problemTypes } from '#contracts/problem.ts';
import type { ServiceRequestAccepted, ServiceRequestList } from '#contracts/service-request.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { approvedByPersona, organizationFounder } from '#tests/helpers/organizations.ts';
import { settleEvents, webApi } from '#tests/helpers/persona-webhooks.ts';
import { mailbox } from '#tests/helpers/tokens.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';

// Issue 28, item 13, through the web origin (ADR 0088): an organization's quick action is a
// service request. Refused before the requester is approved; once approved it is stored for the
// organization, operations get one email (the local SES mailbox) with no words of the requester,
// a second request for the action answers the open one instead of a duplicate, and the dashboard
// lists it with its state; a request sent from the dashboard's dialog is listed too.

const stack = inject('stack');
const api = webApi(stack);
const db = stackDb(stack);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const requests = (organizationId: string) => `/api/organizations/${organizationId}/service-requests`;
const storedRequests = async (organizationId: string) =>
  (await db.scan('Submissions')).filter((item) => item.pk === `SERVICE_REQUEST#${organizationId}`);
const operationsEmails = async (organizationId: string) =>
  (await mailbox(stack)).filter(
    (mail) =>
      mail.destination.to.includes('operations@platform.local') &&
      mail.subject.startsWith('Service request:') &&
      mail.body.text?.includes(organizationId),
  );

describe("an organization's service requests", () => {
  it('are refused before approval, then stored once, emailed to operations once and listed with their state', async () => {
    const name = `Sentinel Bio ${randomBytes(3).toString('hex')}`;
    const founder = await organizationFounder(stack, name);
    const path = requests(founder.organizationId);

    // Not approved yet: refused, nothing stored, nobody told.
    const early = await api(path, {
      method: 'POST',
      token: founder.orgToken,
      body: { action: 'threat-scan' },
    });
    expect(early.status).toBe(403);
    expect(((await early.json()) as { type: string }).type).toBe(problemTypes.organizationApprovalRequired);
    // A token without the organization is refused too.
    const unscoped = await api(path, {
      method: 'POST',
      token: founder.token,
      body: { action: 'threat-scan' },
    });
    expect(unscoped.status).toBe(403);
    await settleEvents(stack);
    expect(await storedRequests(founder.organizationId)).toEqual([]);
    expect(await operationsEmails(founder.organizationId)).toEqual([]);

    await approvedByPersona(stack, founder);
    const first = await api(path, {
      method: 'POST',
      token: founder.orgToken,
      body: { action: 'threat-scan' },
    });
    expect(first.status).toBe(202);
    const created = (await first.json()) as ServiceRequestAccepted;
    expect(created).toMatchObject({
      created: true,
      request: {
        action: 'threat-scan',
        status: 'received',
        answerBy: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    });
    // The other segment's action is not this organization's to ask for.
    const other = await api(path, {
      method: 'POST',
      token: founder.orgToken,
      body: { action: 'market-report' },
    });
    expect(other.status).toBe(400);

    // Asked again: the open request, not a second one.
    const again = await api(path, {
      method: 'POST',
      token: founder.orgToken,
      body: { action: 'threat-scan' },
    });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ created: false, request: created.request });

    await settleEvents(stack);
    const stored = await storedRequests(founder.organizationId);
    expect(stored).toEqual([
      expect.objectContaining({
        sk: 'threat-scan',
        requestId: created.request.requestId,
        requestedBy: founder.userId,
        organizationName: name,
        queued: true,
      }),
    ]);
    const emails = await operationsEmails(founder.organizationId);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toBe(`Service request: Initialize Threat Scan (${name})`);
    expect(emails[0]?.body.text).toContain(created.request.requestId);
    expect(emails[0]?.body.text).toContain(`Answer by: ${created.request.answerBy}`);
    expect(emails[0]?.body.text).not.toContain(founder.email);

    const listed = await api(path, { token: founder.orgToken });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as ServiceRequestList).requests).toEqual([created.request]);

    // The dashboard lists it with its state, and its dialog sends another.
    const context = await browser.newContext();
    await context.addInitScript((revision) => {
      localStorage.setItem(
        'cookie-consent',
        JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
      );
      localStorage.setItem('cookie-consent-date', new Date().toISOString());
      localStorage.setItem('cookie-consent-revision', revision);
    }, cookiePolicyRevision);
    const page = await context.newPage();
    await page.goto(`${stack.web}/defense-dashboard`);
    await page.waitForURL(/\/u\/login\//);
    await page.getByLabel('Email address').fill(founder.email);
    await page.getByLabel('Password').fill(founder.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.web}/defense-dashboard`);
    const main = page.getByRole('main');
    const list = main.getByRole('region', { name: "Your Organization's Requests" });
    const item = list.getByRole('listitem').filter({ hasText: 'Initialize Threat Scan' });
    await item.waitFor();
    expect(await item.textContent()).toContain('Received — we answer within 2 business days, by');

    await main.getByRole('button', { name: 'Initialize Threat Scan' }).click();
    const open = page.getByRole('dialog', { name: 'Initialize Threat Scan' });
    await open.waitFor();
    expect(await open.getByRole('button', { name: 'Send Request' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await open.waitFor({ state: 'hidden' });

    await main.getByRole('button', { name: 'Access Intel Reports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Access Intel Reports' });
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await dialog.getByText('Request sent.').waitFor();
    expect(
      await dialog
        .getByRole('button', { name: 'Close' })
        .evaluate((element) => element === document.activeElement),
    ).toBe(true);
    const withDialog = await new AxeBuilder({ page }).analyze();
    expect(withDialog.violations.map((violation) => violation.id)).toEqual([]);
    await page.keyboard.press('Escape');
    await list.getByRole('listitem').filter({ hasText: 'Access Intel Reports' }).waitFor();
    const listedPage = await new AxeBuilder({ page }).analyze();
    expect(listedPage.violations.map((violation) => violation.id)).toEqual([]);
    await context.close();

    await settleEvents(stack);
    expect((await storedRequests(founder.organizationId)).map((item) => item.sk).sort()).toEqual([
      'intel-reports',
      'threat-scan',
    ]);
    expect(await operationsEmails(founder.organizationId)).toHaveLength(2);
  }, 240_000);
});
