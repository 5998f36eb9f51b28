// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { json, problemJson, stubApi } from '#tests/web/stub-api.ts';
import { Component as CommercialDashboard } from '#web/features/dashboards/screens/commercial-dashboard.tsx';
import { Component as DefenseDashboard } from '#web/features/dashboards/screens/defense-dashboard.tsx';
import { renderScreen } from './render-screen.tsx';

// The two segment dashboards: their capabilities, and quick actions that answer in a modal dialog:
// a service request to operations, listed with its state (ADR 0088); for an account without an
// organization, how to reach us.

beforeAll(installDialogShim);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const noOrganizationSentence =
  'This capability is available after onboarding with your account manager. To schedule it, contact us.';

const dashboards = [
  {
    name: 'commercial',
    Screen: CommercialDashboard,
    path: '/commercial-dashboard',
    me: { organizationType: 'commercial' },
    title: 'Commercial Space Operations',
    capabilities: ['Mission Planning', 'Market Analysis', 'Fleet Management', 'Global Operations'],
    actions: ['Start New Mission Analysis', 'View Fleet Status', 'Generate Market Report'],
  },
  {
    name: 'defense',
    Screen: DefenseDashboard,
    path: '/defense-dashboard',
    me: { organizationType: 'defense' },
    title: 'Defense and Government Dashboard',
    capabilities: ['Threat Assessment', 'Surveillance Systems', 'Strategic Assets', 'Secure Communications'],
    actions: ['Initialize Threat Scan', 'Access Intel Reports', 'Strategic Planning'],
  },
] as const;

describe.each(dashboards)('the $name dashboard', (dashboard) => {
  const open = () => renderScreen(dashboard.Screen, { path: dashboard.path, me: dashboard.me });

  it('names itself in its focused heading and the document title', () => {
    open();
    const heading = screen.getByRole('heading', { level: 1, name: dashboard.title });
    expect(document.activeElement).toBe(heading);
    expect(document.title).toContain(dashboard.title);
  });

  it('describes each capability on its own card', () => {
    open();
    const capabilities = screen.getByRole('region', { name: 'Capabilities' });
    const cards = within(capabilities).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
      ...dashboard.capabilities,
    ]);
    for (const card of cards)
      expect(within(card).getByRole('paragraph').textContent?.length).toBeGreaterThan(40);
  });

  it('leads to the account, and not back to /dashboard (which sends an approved user here)', () => {
    open();
    expect(screen.queryByRole('link', { name: 'Back to Dashboard' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Your Account' }).getAttribute('href')).toBe('/user-account');
  });

  it.each(dashboard.actions)('"%s" opens a labelled dialog; Escape closes it and returns focus', (action) => {
    open();
    expect(screen.queryByRole('dialog')).toBeNull();
    const button = screen.getByRole('button', { name: action });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    button.focus();
    fireEvent.click(button);

    const dialog = screen.getByRole('dialog', { name: action });
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(noOrganizationSentence);
    expect(within(dialog).getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact');
    expect(within(dialog).queryByRole('button', { name: 'Send Request' })).toBeNull();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));

    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes the dialog with its Close button and returns focus to the action', () => {
    open();
    const action = dashboard.actions[1];
    const button = screen.getByRole('button', { name: action });
    fireEvent.click(button);
    fireEvent.click(
      within(screen.getByRole('dialog', { name: action })).getByRole('button', { name: 'Close' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    // It opens again, for another action, with that action's name.
    const other = dashboard.actions[2];
    fireEvent.click(screen.getByRole('button', { name: other }));
    expect(screen.getByRole('dialog', { name: other })).toBeTruthy();
  });
});

describe('the defense dashboard', () => {
  it('shows the classified-access banner; the commercial one does not', () => {
    renderScreen(DefenseDashboard, { path: '/defense-dashboard', me: { organizationType: 'government' } });
    const banner = screen.getByRole('note');
    expect(within(banner).getByText('Classified access')).toBeTruthy();
    expect(banner.textContent).toMatch(/verified defense and government organizations/);
    cleanup();
    renderScreen(CommercialDashboard, { path: '/commercial-dashboard' });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText('Classified access')).toBeNull();
  });
});

describe("an organization's service requests (ADR 0088)", () => {
  const ORG = 'org_acme';
  const received = (action: string, requestId = `r-${action}`) => ({
    requestId,
    action,
    status: 'received',
    requestedAt: '2026-11-27T09:00:00.000Z',
    answerBy: '2026-12-01',
  });
  const open = () =>
    renderScreen(CommercialDashboard, {
      path: '/commercial-dashboard',
      me: { organizationId: ORG, organizationRole: 'org_member' },
    });

  it('lists the requests with their state, and a quick action with one open shows it instead of sending', async () => {
    const api = stubApi(async () => json(200, { requests: [received('fleet-status')] }));
    open();
    const list = screen.getByRole('region', { name: "Your Organization's Requests" });
    const item = await within(list).findByRole('listitem');
    expect(within(item).getByRole('heading', { name: 'View Fleet Status' })).toBeTruthy();
    expect(item.textContent).toContain('Received — we answer within 2 business days, by');
    expect(item.querySelector('time[datetime="2026-12-01"]')).toBeTruthy();
    expect(api.fetch.mock.calls[0]?.[0]).toBe(`/api/organizations/${ORG}/service-requests`);

    fireEvent.click(screen.getByRole('button', { name: 'View Fleet Status' }));
    const dialog = screen.getByRole('dialog', { name: 'View Fleet Status' });
    expect(within(dialog).queryByRole('button', { name: 'Send Request' })).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toContain('Received');
    expect(api.fetch).toHaveBeenCalledTimes(1);
  });

  it('sends a request, announces its state, focuses Close and lists it', async () => {
    let stored: unknown[] = [];
    const api = stubApi(async (_url, init) => {
      if (init.method === 'POST') {
        stored = [received('market-report', 'r-new')];
        return json(202, { request: stored[0], created: true });
      }
      return json(200, { requests: stored });
    });
    open();
    await screen.findByText('No requests yet: a quick action sends our team one.');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Market Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate Market Report' });
    const send = within(dialog).getByRole('button', { name: 'Send Request' });
    expect(document.activeElement).toBe(send);
    fireEvent.click(send);
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toContain('Request sent.'));
    expect(within(dialog).getByRole('status').textContent).toContain('we answer within 2 business days');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    const posts = api.fetch.mock.calls.filter(([, init]) => init.method === 'POST');
    expect(posts.map(([url, init]) => [url, JSON.parse(String(init.body))])).toEqual([
      [`/api/organizations/${ORG}/service-requests`, { action: 'market-report' }],
    ]);
    const list = screen.getByRole('region', { name: "Your Organization's Requests" });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  });

  it("says the API's refusal in the dialog (an unapproved member)", async () => {
    stubApi(async (_url, init) =>
      init.method === 'POST'
        ? problemJson(403, {
            type: 'https://platform.example/problems/organization-approval-required',
            title: 'Forbidden',
            status: 403,
            detail: 'Your identity verification must be approved before you can request a service.',
          })
        : json(200, { requests: [] }),
    );
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Start New Mission Analysis' }));
    const dialog = screen.getByRole('dialog', { name: 'Start New Mission Analysis' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Request' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Your identity verification must be approved before you can request a service.',
    );
    expect(within(dialog).getByRole('button', { name: 'Send Request' })).toBeTruthy();
  });
});
