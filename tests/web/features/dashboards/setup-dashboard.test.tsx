// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KycStatus } from '#contracts/kyc.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import { Component as SetupDashboard } from '#web/features/dashboards/screens/setup-dashboard.tsx';
import { renderScreen } from './render-screen.tsx';

// /dashboard: where onboarding stands and the one way on, for every state the shell lets through.

const open = (me: Parameters<typeof renderScreen>[1]['me'] = {}) =>
  renderScreen(SetupDashboard, { path: '/dashboard', me });

const identityCard = () => screen.getByRole('region', { name: /^Identity Verification/ });
const accountCard = () => screen.getByRole('region', { name: 'Account' });

/** The card's facts as a term -> definition map. */
function facts(region: HTMLElement): Record<string, string | null | undefined> {
  const terms = within(region).getAllByRole('term');
  const definitions = within(region).getAllByRole('definition');
  return Object.fromEntries(terms.map((term, index) => [term.textContent, definitions[index]?.textContent]));
}

beforeEach(() => {
  document.documentElement.dataset.theme = 'light';
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the setup dashboard', () => {
  it('welcomes the user by name and moves focus to that heading', () => {
    open({ name: 'Casey Commercial' });
    const heading = screen.getByRole('heading', { level: 1, name: 'Welcome, Casey Commercial' });
    expect(document.activeElement).toBe(heading);
    expect(document.title).toContain('Dashboard');
  });

  it('welcomes without a name when the account has none', () => {
    open({ name: '  ' });
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome' })).toBeTruthy();
  });

  it.each([
    ['commercial', 'Open Commercial Dashboard', '/commercial-dashboard'],
    ['academic', 'Open Commercial Dashboard', '/commercial-dashboard'],
    ['defense', 'Open Defense and Government Dashboard', '/defense-dashboard'],
    ['government', 'Open Defense and Government Dashboard', '/defense-dashboard'],
    [null, 'Open Commercial Dashboard', '/commercial-dashboard'],
  ] as const)(
    'an approved %s organization sees verification complete and opens its dashboard',
    (type, name, href) => {
      open({ kycStatus: 'approved', organizationType: type });
      const card = screen.getByRole('region', { name: 'Identity Verification Complete' });
      expect(within(card).getByRole('link', { name }).getAttribute('href')).toBe(href);
      expect(within(card).queryByRole('link', { name: 'Provide Verification Consent' })).toBeNull();
    },
  );

  it('explains verification and offers consent, in place, to a user who has not given it', () => {
    open({ kycStatus: 'not_started', consentRecorded: false });
    const card = screen.getByRole('region', { name: 'Identity Verification Required' });
    expect(within(card).getByText(/we verify the identity of the person responsible/)).toBeTruthy();
    // A button that opens the consent dialog here (ADR 0086), not a link to /kyc/start.
    expect(within(card).getByRole('button', { name: 'Provide Verification Consent' })).toBeTruthy();
    expect(within(card).queryByRole('link', { name: 'Provide Verification Consent' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Open .* Dashboard/ })).toBeNull();
  });

  it('sends a user whose consent is recorded on to the verification itself', () => {
    open({ kycStatus: 'not_started', consentRecorded: true });
    const card = identityCard();
    expect(within(card).getByText(/Your consent is recorded/)).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Continue to Verification' }).getAttribute('href')).toBe(
      '/kyc/persona',
    );
    expect(within(card).queryByRole('link', { name: 'Provide Verification Consent' })).toBeNull();
  });

  it.each([
    ['pending', 'commercial', 'Identity Verification Under Review', '/auth/kyc-complete'],
    ['pending', 'government', 'Identity Verification Under Review', '/auth/kyc-complete-defense'],
    ['rejected', 'academic', 'Identity Verification Not Approved', '/auth/kyc-complete'],
    ['rejected', 'defense', 'Identity Verification Not Approved', '/auth/kyc-complete-defense'],
  ] as const)('a %s %s user is led to the status screen of their segment', (status, type, heading, href) => {
    open({ kycStatus: status, organizationType: type });
    const card = screen.getByRole('region', { name: heading });
    expect(within(card).getByRole('link', { name: 'View Verification Status' }).getAttribute('href')).toBe(
      href,
    );
    expect(screen.queryByRole('link', { name: /Open .* Dashboard/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Provide Verification Consent' })).toBeNull();
  });

  it('shows the account as the server knows it', () => {
    open({ email: 'casey@acme-pharma.example', emailVerified: true });
    expect(facts(accountCard())).toEqual({
      Email: 'casey@acme-pharma.example',
      'Email verified': 'Yes',
      'Organization type': 'Commercial/Enterprise',
      'Verification status': 'Verified',
    });
    expect(within(accountCard()).getByRole('link', { name: 'Your Account' }).getAttribute('href')).toBe(
      '/user-account',
    );
  });

  it('says No for an email that is not verified', () => {
    open({ emailVerified: false });
    expect(facts(accountCard())['Email verified']).toBe('No');
  });

  it.each([
    ['commercial', 'Commercial/Enterprise'],
    ['academic', 'Academic/Research'],
    ['government', 'Government'],
    ['defense', 'Defense/Military'],
    [null, 'Not set'],
  ] as [OrganizationType | null, string][])('names the organization type %s "%s"', (type, name) => {
    open({ organizationType: type });
    expect(facts(accountCard())['Organization type']).toBe(name);
  });

  it.each([
    ['approved', 'Verified'],
    ['not_started', 'Not Started'],
    ['pending', 'Under Review'],
    ['rejected', 'Not Approved'],
  ] as [KycStatus, string][])('words the verification status %s as "%s"', (status, words) => {
    open({ kycStatus: status });
    expect(facts(accountCard())['Verification status']).toBe(words);
  });

  it('leaves the theme and Log Out to the header: the page has neither of its own (ADR 0085)', () => {
    open();
    expect(screen.queryByRole('button', { name: /Switch to/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log Out' })).toBeNull();
  });
});
