// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrganizationTeamResponse } from '#contracts/organization-team.ts';
import { problemTypes } from '#contracts/problem.ts';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { renderScreen } from '#tests/web/features/dashboards/render-screen.tsx';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { Component as OrganizationTeam } from '#web/features/organization/screens/organization-team.tsx';

// /organization: an organization's admin sees the members and pending invitations, invites a
// colleague (the contract's checks and the API's refusals on the form), resends and revokes
// invitations, changes roles and removes members; every change reloads the team.

interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

const base = '/api/organizations/org_acme';

const team = (): OrganizationTeamResponse => ({
  organizationId: 'org_acme',
  members: [
    {
      userId: 'auth0|casey',
      email: 'casey@acme-pharma.example',
      role: 'org_admin',
      emailVerified: true,
      kycStatus: 'approved',
      joinedAt: '2026-11-01T09:00:00.000Z',
    },
    {
      userId: 'auth0|robin',
      email: 'robin@acme-pharma.example',
      role: 'org_member',
      emailVerified: false,
      kycStatus: 'pending',
      joinedAt: '2026-11-10T09:00:00.000Z',
    },
  ],
  invitations: [
    {
      invitationId: 'uinv_fresh',
      email: 'sam@acme-pharma.example',
      role: 'org_member',
      invitedAt: '2026-11-25T09:00:00.000Z',
      expiresAt: '2026-12-02T09:00:00.000Z',
      expired: false,
    },
    {
      invitationId: 'uinv_old',
      email: 'lee@acme-pharma.example',
      role: 'org_admin',
      invitedAt: '2026-11-01T09:00:00.000Z',
      expiresAt: '2026-11-08T09:00:00.000Z',
      expired: true,
    },
  ],
});

const invitation = {
  invitationId: 'uinv_new',
  email: 'new@acme-pharma.example',
  role: 'org_member',
  invitedAt: '2026-11-27T09:00:00.000Z',
  expiresAt: '2026-12-04T09:00:00.000Z',
  expired: false,
};

type Handler = (call: ApiCall) => Response | Promise<Response> | undefined;

/** Stubs fetch: the team answers GETs unless `handler` answers first; every call is recorded. */
function stubApi(handler: Handler = () => undefined) {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        path,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const answer = handler(call);
      if (answer) return answer;
      if (call.method === 'GET' && path === `${base}/team`) return json(200, team());
      throw new Error(`unexpected ${call.method} ${path}`);
    }),
  );
  return {
    calls,
    loads: () => calls.filter((call) => call.method === 'GET' && call.path === `${base}/team`).length,
  };
}

function renderTeam() {
  return renderScreen(OrganizationTeam, {
    path: '/organization',
    me: {
      userId: 'auth0|casey',
      email: 'casey@acme-pharma.example',
      organizationId: 'org_acme',
      organizationRole: 'org_admin',
    },
  });
}

const table = (name: string) => screen.getByRole('table', { name });
const row = (tableName: string, email: string) =>
  within(table(tableName))
    .getAllByRole('row')
    .find((candidate) => candidate.textContent?.includes(email)) as HTMLElement;

beforeAll(() => installDialogShim());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the team page', () => {
  it('lists the members, with the caller marked "You" and without actions on their own row', async () => {
    const api = stubApi();
    renderTeam();

    expect(await screen.findByRole('heading', { level: 1, name: 'Team' })).toBeDefined();
    await screen.findByRole('table', { name: 'Members of your organization' });
    expect(api.calls[0]).toMatchObject({ method: 'GET', path: `${base}/team` });
    expect(screen.getByText('The people of Acme Pharma on the platform', { exact: false })).toBeDefined();

    const headers = within(table('Members of your organization'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Email',
      'Role',
      'Email verified',
      'Identity verification',
      'Joined',
      'Actions',
    ]);

    const mine = row('Members of your organization', 'casey@acme-pharma.example');
    expect(within(mine).getByText('You')).toBeDefined();
    expect(within(mine).getByText('Admin')).toBeDefined();
    expect(within(mine).getByText('Yes')).toBeDefined();
    expect(within(mine).getByText('Verified')).toBeDefined();
    expect(within(mine).queryByRole('button')).toBeNull();
    expect(within(mine).queryByRole('combobox')).toBeNull();

    const robin = row('Members of your organization', 'robin@acme-pharma.example');
    expect(within(robin).getByText('No')).toBeDefined();
    expect(within(robin).getByText('Under Review')).toBeDefined();
    expect(within(robin).queryByText('You')).toBeNull();
    const select = within(robin).getByRole('combobox', { name: 'Role of robin@acme-pharma.example' });
    expect((select as HTMLSelectElement).value).toBe('org_member');
    expect(within(robin).getByRole('button', { name: 'Remove robin@acme-pharma.example' })).toBeDefined();
    expect(
      within(robin)
        .getByRole('button', { name: 'Save role of robin@acme-pharma.example' })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(robin).getByText((_, element) => element?.tagName === 'TIME')).toBeDefined();
  });

  it('lists the pending invitations with their role, dates and "Expired" once expired', async () => {
    stubApi();
    renderTeam();

    await screen.findByRole('table', { name: 'Invitations not accepted yet' });
    const fresh = row('Invitations not accepted yet', 'sam@acme-pharma.example');
    expect(within(fresh).getByText('Member')).toBeDefined();
    expect(within(fresh).queryByText('Expired')).toBeNull();
    const times = fresh.querySelectorAll('time');
    expect([...times].map((time) => time.getAttribute('datetime'))).toEqual([
      '2026-11-25T09:00:00.000Z',
      '2026-12-02T09:00:00.000Z',
    ]);
    const old = row('Invitations not accepted yet', 'lee@acme-pharma.example');
    expect(within(old).getByText('Expired')).toBeDefined();
    expect(within(old).getByText('Admin')).toBeDefined();
  });

  it('says so when there is no pending invitation', async () => {
    stubApi((call) => (call.method === 'GET' ? json(200, { ...team(), invitations: [] }) : undefined));
    renderTeam();
    expect(await screen.findByText('No invitations are waiting to be accepted.')).toBeDefined();
    expect(screen.queryByRole('table', { name: 'Invitations not accepted yet' })).toBeNull();
  });

  it('offers a retry when the team cannot be loaded', async () => {
    let fail = true;
    stubApi((call) => {
      if (call.method === 'GET' && fail) {
        fail = false;
        return problemJson(503, { type: 'about:blank', title: 'Unavailable', status: 503 });
      }
      return undefined;
    });
    renderTeam();
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Members of your organization' })).toBeDefined();
  });

  it('invites a colleague as a member by default, says so and reloads the team', async () => {
    const api = stubApi((call) => (call.method === 'POST' ? json(201, invitation) : undefined));
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    const role = screen.getByRole('combobox', { name: 'Role' }) as HTMLSelectElement;
    expect(role.value).toBe('org_member');
    await user.type(screen.getByRole('textbox', { name: 'Business email' }), 'new@acme-pharma.example');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation sent to new@acme-pharma.example.')).toBeDefined();
    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: `${base}/invitations`,
      body: { email: 'new@acme-pharma.example', role: 'org_member' },
    });
    await waitFor(() => expect(api.loads()).toBe(2));
  });

  it('invites an admin when the role says so', async () => {
    const api = stubApi((call) => (call.method === 'POST' ? json(201, invitation) : undefined));
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    await user.type(screen.getByRole('textbox', { name: 'Business email' }), 'new@acme-pharma.example');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'org_admin');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    await waitFor(() =>
      expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
        email: 'new@acme-pharma.example',
        role: 'org_admin',
      }),
    );
  });

  it("shows the API's field error on the email field (400)", async () => {
    stubApi((call) =>
      call.method === 'POST'
        ? problemJson(400, {
            type: problemTypes.validation,
            title: 'Bad Request',
            status: 400,
            errors: [{ field: 'email', message: 'Please use your business email address' }],
          })
        : undefined,
    );
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    const email = screen.getByRole('textbox', { name: 'Business email' });
    await user.type(email, 'new@acme-pharma.example');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Please use your business email address')).toBeDefined();
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(email);
  });

  it('checks the address with the contract before sending anything', async () => {
    const api = stubApi();
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    await user.type(screen.getByRole('textbox', { name: 'Business email' }), 'not an address');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Business email' }).getAttribute('aria-invalid')).toBe(
        'true',
      ),
    );
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it.each([
    [409, problemTypes.alreadyMember, 'This address is already a member of your organization.'],
    [409, problemTypes.invitationPending, 'An invitation to this address is pending: resend or revoke it.'],
    [429, problemTypes.rateLimited, 'Too many invitations. Try again in a minute.'],
    [
      403,
      problemTypes.organizationApprovalRequired,
      'Your own identity verification must be approved first.',
    ],
  ])("shows a %i problem's detail as the form's error", async (status, type, detail) => {
    const api = stubApi((call) =>
      call.method === 'POST' ? problemJson(status, { type, title: 'Refused', status, detail }) : undefined,
    );
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    await user.type(screen.getByRole('textbox', { name: 'Business email' }), 'robin@acme-pharma.example');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));

    const alert = await screen.findByText(detail);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(api.loads()).toBe(1);
  });

  it('resends an invitation: the right route, the button disabled while it runs, then a reload', async () => {
    let answer: (response: Response) => void = () => {};
    const api = stubApi((call) =>
      call.method === 'POST'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    renderTeam();
    await screen.findByRole('table', { name: 'Invitations not accepted yet' });

    const resend = screen.getByRole('button', { name: 'Resend the invitation to lee@acme-pharma.example' });
    fireEvent.click(resend);
    await waitFor(() => expect(resend.hasAttribute('disabled')).toBe(true));
    expect(resend.textContent).toBe('Sending...');
    expect(api.calls.at(-1)).toMatchObject({ method: 'POST', path: `${base}/invitations/uinv_old/resend` });

    answer(json(201, { ...invitation, invitationId: 'uinv_old2', email: 'lee@acme-pharma.example' }));
    expect(
      await screen.findByText(
        'A new invitation was sent to lee@acme-pharma.example. It is valid for 7 days.',
      ),
    ).toBeDefined();
    await waitFor(() => expect(api.loads()).toBe(2));
  });

  it('revokes an invitation only after confirming, then reloads; Cancel sends nothing and gives focus back', async () => {
    const api = stubApi((call) =>
      call.method === 'DELETE' ? json(200, { invitationId: 'uinv_fresh', revoked: true }) : undefined,
    );
    renderTeam();
    await screen.findByRole('table', { name: 'Invitations not accepted yet' });

    const revoke = screen.getByRole('button', { name: 'Revoke the invitation to sam@acme-pharma.example' });
    fireEvent.click(revoke);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this invitation?' });
    expect(
      within(dialog).getByText('The link we sent to sam@acme-pharma.example will stop working.'),
    ).toBeDefined();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(revoke));
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(revoke);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Revoke this invitation?' })).getByRole('button', {
        name: 'Revoke invitation',
      }),
    );
    expect(await screen.findByText('The invitation to sam@acme-pharma.example was revoked.')).toBeDefined();
    expect(api.calls.find((call) => call.method === 'DELETE')).toMatchObject({
      path: `${base}/invitations/uinv_fresh`,
    });
    await waitFor(() => expect(api.loads()).toBe(2));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Pending invitations' })),
    );
  });

  it('removes a member after a dialog that says their sessions end and their consent records are kept', async () => {
    const api = stubApi((call) =>
      call.method === 'DELETE' ? json(200, { userId: 'auth0|robin', removed: true }) : undefined,
    );
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove robin@acme-pharma.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this member?' });
    expect(dialog.textContent).toContain('Their sessions end');
    expect(dialog.textContent).toContain('consent records are kept');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));

    expect(
      await screen.findByText('robin@acme-pharma.example was removed from your organization.'),
    ).toBeDefined();
    expect(api.calls.find((call) => call.method === 'DELETE')).toMatchObject({
      path: `${base}/members/auth0%7Crobin`,
    });
    await waitFor(() => expect(api.loads()).toBe(2));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Members' })),
    );
  });

  it("shows the API's refusal of a removal (the last admin) and gives focus back to the button", async () => {
    const api = stubApi((call) =>
      call.method === 'DELETE'
        ? problemJson(409, {
            type: problemTypes.lastOrganizationAdmin,
            title: 'Conflict',
            status: 409,
            detail: 'Your organization needs at least one admin.',
          })
        : undefined,
    );
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    const remove = screen.getByRole('button', { name: 'Remove robin@acme-pharma.example' });
    fireEvent.click(remove);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove this member?' })).getByRole('button', {
        name: 'Remove member',
      }),
    );
    expect(await screen.findByText('Your organization needs at least one admin.')).toBeDefined();
    await waitFor(() => expect(document.activeElement).toBe(remove));
    expect(api.loads()).toBe(1);
  });

  it("changes a member's role with the select and Save, then reloads", async () => {
    const api = stubApi((call) =>
      call.method === 'PUT' ? json(200, { ...team().members[1], role: 'org_admin' }) : undefined,
    );
    const user = userEvent.setup();
    renderTeam();
    await screen.findByRole('table', { name: 'Members of your organization' });

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Role of robin@acme-pharma.example' }),
      'org_admin',
    );
    const save = screen.getByRole('button', { name: 'Save role of robin@acme-pharma.example' });
    expect(save.hasAttribute('disabled')).toBe(false);
    await user.click(save);

    expect(await screen.findByText('The role of robin@acme-pharma.example was changed.')).toBeDefined();
    expect(api.calls.find((call) => call.method === 'PUT')).toEqual({
      method: 'PUT',
      path: `${base}/members/auth0%7Crobin/role`,
      body: { role: 'org_admin' },
    });
    await waitFor(() => expect(api.loads()).toBe(2));
  });
});
