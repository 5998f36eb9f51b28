// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { Component as CommercialDashboard } from '#web/features/dashboards/screens/commercial-dashboard.tsx';
import { Component as DefenseDashboard } from '#web/features/dashboards/screens/defense-dashboard.tsx';
import { renderScreen } from './render-screen.tsx';

// The two segment dashboards: their capabilities, and quick actions that answer honestly in a
// modal dialog instead of doing nothing.

beforeAll(installDialogShim);
afterEach(cleanup);

const onboardingSentence = 'This capability is available after onboarding with your account manager.';

const dashboards = [
  {
    name: 'commercial',
    Screen: CommercialDashboard,
    path: '/commercial-dashboard',
    me: { organizationType: 'commercial' },
    title: 'Commercial Dashboard',
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
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(dialog).getByText(onboardingSentence)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    expect(dialog.getAttribute('aria-describedby')).toBe(within(dialog).getByText(onboardingSentence).id);

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
