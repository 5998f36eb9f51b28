// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeResponse } from '#contracts/me.ts';
import { problemTypes } from '#contracts/problem.ts';
import { approvedCommercial, renderScreen } from '#tests/web/features/dashboards/render-screen.tsx';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { Component as AuthCallback } from '#web/features/auth/screens/auth-callback.tsx';

// /auth/callback and the organization (ADR 0083, 0084): an invitee's login joins the organization
// its token names; a member's login without their organization is done again through it, once per
// callback; everyone then goes on to where the login started or to their next step.

const relogin = 'platform.organization-login';

interface ApiCall {
  method: string;
  path: string;
}

function stubApi(answer: (call: ApiCall) => Response) {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const invitee: Partial<MeResponse> = {
  kycStatus: 'not_started',
  consentRecorded: false,
  organizationId: null,
  organizationRole: null,
};

function renderCallback(
  me: Partial<MeResponse>,
  session: { tokenOrganizationId?: string; returnTo?: string } = {},
) {
  const loginThrough = vi.fn(async (_organization: string, _returnTo?: string) => {});
  const refreshMe = vi.fn(async () => ({
    ...approvedCommercial,
    ...me,
    organizationId: 'org_acme',
    organizationRole: 'org_member' as const,
  }));
  const view = renderScreen(AuthCallback, {
    path: '/auth/callback',
    me,
    state: session.returnTo ? { returnTo: session.returnTo } : undefined,
    session: { tokenOrganizationId: session.tokenOrganizationId, loginThrough, refreshMe },
  });
  return { ...view, loginThrough, refreshMe };
}

const landed = async () => (await screen.findByTestId('elsewhere')).textContent;

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the callback after an accepted invitation', () => {
  it('joins the organization the token names, reads the account again and goes on to the next step', async () => {
    const calls = stubApi(() => json(200, { organizationId: 'org_acme', role: 'org_member' }));
    const view = renderCallback(invitee, { tokenOrganizationId: 'org_acme' });

    expect(await landed()).toBe('/kyc/start');
    expect(calls).toEqual([{ method: 'POST', path: '/api/organizations/org_acme/membership' }]);
    expect(view.refreshMe).toHaveBeenCalledTimes(1);
    expect(view.loginThrough).not.toHaveBeenCalled();
  });

  it('goes on without a membership when there is no invitation for the address (404)', async () => {
    stubApi(() =>
      problemJson(404, {
        type: problemTypes.invitationNotFound,
        title: 'Not Found',
        status: 404,
      }),
    );
    const view = renderCallback(invitee, { tokenOrganizationId: 'org_acme' });

    expect(await landed()).toBe('/kyc/start');
    expect(view.refreshMe).not.toHaveBeenCalled();
    expect(screen.queryByText(/could not add you/)).toBeNull();
  });

  it('says so, and goes on, when joining fails otherwise', async () => {
    stubApi(() => problemJson(503, { type: 'about:blank', title: 'Unavailable', status: 503 }));
    renderCallback(invitee, { tokenOrganizationId: 'org_acme' });
    expect(await landed()).toBe('/kyc/start');
    expect(await screen.findByText(/could not add you to your organization/)).toBeDefined();
  });

  it('asks nothing when neither the account nor the token names an organization', async () => {
    const calls = stubApi(() => json(500, {}));
    const view = renderCallback({ organizationId: null }, { returnTo: '/user-account' });
    expect(await landed()).toBe('/user-account');
    expect(calls).toEqual([]);
    expect(view.loginThrough).not.toHaveBeenCalled();
  });
});

describe("the callback of a member's login", () => {
  it("signs in through the member's organization once when the token has no org_id, keeping where the login started", async () => {
    const calls = stubApi(() => json(500, {}));
    const view = renderCallback(
      { organizationId: 'org_acme', organizationRole: 'org_member' },
      { returnTo: '/user-account' },
    );

    await waitFor(() => expect(view.loginThrough).toHaveBeenCalledWith('org_acme', '/user-account'));
    expect(sessionStorage.getItem(relogin)).toBe('1');
    expect(screen.queryByTestId('elsewhere')).toBeNull();
    expect(calls).toEqual([]);
  });

  it("signs in through the member's organization when the token names another one", async () => {
    stubApi(() => json(500, {}));
    const view = renderCallback({ organizationId: 'org_acme' }, { tokenOrganizationId: 'org_other' });
    await waitFor(() => expect(view.loginThrough).toHaveBeenCalledWith('org_acme', undefined));
  });

  it('does not do it again on the callback of that login (no loop), and forgets the mark', async () => {
    stubApi(() => json(500, {}));
    sessionStorage.setItem(relogin, '1');
    const view = renderCallback({ organizationId: 'org_acme' });

    expect(await landed()).toBe('/commercial-dashboard');
    expect(view.loginThrough).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(relogin)).toBeNull();
  });

  it('goes straight on when the token already names the organization', async () => {
    stubApi(() => json(500, {}));
    const view = renderCallback({ organizationId: 'org_acme' }, { tokenOrganizationId: 'org_acme' });
    expect(await landed()).toBe('/commercial-dashboard');
    expect(view.loginThrough).not.toHaveBeenCalled();
  });

  it('lands the first sign-in after the password link on /registration-success (ADR 0086)', async () => {
    stubApi(() => json(500, {}));
    const view = renderCallback(
      { organizationId: 'org_acme', kycStatus: 'not_started', consentRecorded: false },
      { tokenOrganizationId: 'org_acme', returnTo: '/registration-success?organization=org_acme' },
    );
    expect(await landed()).toBe('/registration-success');
    expect(view.router.state.location.search).toBe('?organization=org_acme');
  });
});
