// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminAuditEntry } from '#contracts/admin-audit.ts';
import type { ListVerificationsResponse, VerificationItem } from '#contracts/admin-verifications.ts';
import type { MeResponse } from '#contracts/me.ts';
import { problemTypes } from '#contracts/problem.ts';
import { signedInRouteKeys } from '#contracts/signed-in-route-keys.ts';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { ToastProvider } from '#web/components/toast.tsx';
import { paths } from '#web/config/paths.ts';
import { queuePollIntervalMs } from '#web/features/admin/lib/use-verification-queue.ts';
import { Component as VerificationReview } from '#web/features/admin/screens/verification-review.tsx';
import { createApiClient } from '#web/lib/api-client.ts';
import { type Session, SessionContext } from '#web/lib/session.ts';

// The admins' review queue as an admin uses it: the filter in the URL, each item's organization,
// segment, inquiry and history, decisions with a required reason, and a list that stays current
// without a reload.

const admin: MeResponse = {
  userId: 'auth0|admin-me',
  email: 'admin@platform.local',
  emailVerified: true,
  name: 'Local Admin',
  organizationName: null,
  organizationType: null,
  organizationId: null,
  organizationRole: null,
  role: 'admin',
  kycStatus: 'approved',
  consentRecorded: false,
  consentWithdrawn: false,
  kycReason: null,
  kycNewAttemptAllowed: false,
  kycAttempts: { used: 1, max: 3 },
  deletionRequest: null,
};

const item = (overrides: Partial<VerificationItem> & { userId: string }): VerificationItem => ({
  status: 'pending',
  inquiryId: `inq_${overrides.userId.replace(/\W/g, '')}`,
  updatedAt: '2026-11-21T06:00:00.000Z',
  decidedBy: 'persona',
  reasonCode: null,
  submitted: overrides.status !== 'not_started',
  attempt: 1,
  newAttemptAllowed: false,
  email: 'dana@northwatch-defense.example',
  name: 'Dana Defense',
  organizationName: 'Northwatch Defense',
  organizationUrl: 'https://northwatch-defense.example',
  organizationType: 'defense',
  proposal: null,
  flaggedChecks: [],
  history: [
    {
      status: 'pending',
      previousStatus: 'not_started',
      decidedBy: 'persona',
      adminId: null,
      reason: 'inquiry.marked-for-review',
      reasonCode: null,
      action: 'status_changed',
      at: '2026-11-21T06:00:00.000Z',
    },
  ],
  ...overrides,
});

const northwatch = item({ userId: 'auth0|u1' });
const helix = item({
  userId: 'auth0|u2',
  email: 'ada@helix-bio.example',
  name: 'Ada Lovelace',
  organizationName: 'Helix Bio',
  organizationUrl: 'https://helix-bio.example',
  organizationType: 'academic',
});
const rejectedBefore = item({
  userId: 'auth0|u3',
  status: 'rejected',
  decidedBy: 'admin',
  organizationName: 'Acme Pharma',
  organizationType: 'commercial',
  history: [
    {
      status: 'pending',
      previousStatus: 'not_started',
      decidedBy: 'persona',
      adminId: null,
      reason: 'inquiry.completed',
      reasonCode: null,
      action: 'status_changed',
      at: '2026-11-20T06:00:00.000Z',
    },
    {
      status: 'rejected',
      previousStatus: 'pending',
      decidedBy: 'admin',
      adminId: 'auth0|other-admin',
      reason: 'The passport photo is unreadable',
      reasonCode: null,
      action: 'status_changed',
      at: '2026-11-20T08:00:00.000Z',
    },
    {
      status: 'approved',
      previousStatus: 'rejected',
      decidedBy: 'admin',
      adminId: 'auth0|admin-me',
      reason: 'A new passport photo was sent by post',
      reasonCode: null,
      action: 'status_changed',
      at: '2026-11-20T09:00:00.000Z',
    },
  ],
});

interface Call {
  method: string;
  url: string;
  body: unknown;
  authorization: string | undefined;
}

/**
 * A fake API: `lists[status]` answers the queue (a function may answer differently per call),
 * `decide` answers decisions. Every call is recorded.
 */
function fakeApi(options: {
  lists?: Partial<Record<string, ListVerificationsResponse | (() => Promise<Response> | Response)>>;
  decide?: (userId: string, body: unknown) => Response | Promise<Response>;
  trail?: (userId: string) => Response | Promise<Response>;
  evidence?: (userId: string) => Response | Promise<Response>;
}) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = new Headers(init?.headers);
    calls.push({ method, url, body, authorization: headers.get('Authorization') ?? undefined });
    // The list, whatever else its query holds (search, order, cursor): answered by status.
    const list = /^\/api\/admin\/verifications\?status=(\w+)(&.*)?$/.exec(url);
    if (method === 'GET' && list) {
      const answer = options.lists?.[list[1] ?? ''] ?? { items: [], truncated: false, nextCursor: null };
      return typeof answer === 'function' ? answer() : json(200, answer);
    }
    const decision = /^\/api\/admin\/verifications\/([^/]+)\/decision$/.exec(url);
    if (method === 'POST' && decision) {
      return options.decide
        ? options.decide(decodeURIComponent(decision[1] ?? ''), body)
        : json(200, {
            userId: decodeURIComponent(decision[1] ?? ''),
            kycStatus: (body as { decision: string }).decision,
            reasonCode: (body as { reasonCode: string }).reasonCode,
            outcome: 'decided',
          });
    }
    const evidence = /^\/api\/admin\/verifications\/([^/]+)\/evidence$/.exec(url);
    if (method === 'GET' && evidence && options.evidence)
      return options.evidence(decodeURIComponent(evidence[1] ?? ''));
    const trail = /^\/api\/admin\/verifications\/([^/]+)\/audit-trail$/.exec(url);
    if (method === 'GET' && trail && options.trail) return options.trail(decodeURIComponent(trail[1] ?? ''));
    return problemJson(404, { type: 'about:blank', title: 'Not Found', status: 404 });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls,
    lists: () => calls.filter((call) => call.method === 'GET').map((call) => call.url),
    decisions: () => calls.filter((call) => call.method === 'POST'),
  };
}

function renderQueue(path: string = paths.adminVerification.getHref()) {
  const onUnauthorized = vi.fn();
  const session: Session = {
    api: createApiClient(signedInRouteKeys, { getAccessToken: async () => 'token', onUnauthorized }),
    me: admin,
    refreshMe: vi.fn(async () => admin),
    holdActivity: () => () => {},
    tokenOrganizationId: undefined,
    loginThrough: async () => {},
    accessToken: async () => 'token',
    logout: vi.fn(),
  };
  const router = createMemoryRouter(
    [
      {
        path: paths.adminVerification.path,
        element: (
          <SessionContext.Provider value={session}>
            <VerificationReview />
          </SessionContext.Provider>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  );
  return { router, onUnauthorized };
}

const card = (name: string) => screen.getByRole('article', { name });
/** A decided card is collapsed: open it (ADR 0082). */
const openDetails = (article: HTMLElement) =>
  fireEvent.click(within(article).getByRole('button', { name: /^Show details/ }));
const findCard = (name: string) => screen.findByRole('article', { name });
/** The internal note. */
const reasonOf = (article: HTMLElement) =>
  within(article).getByLabelText<HTMLTextAreaElement>('Internal note (optional)');
/** The reason code the user is told. */
const codeOf = (article: HTMLElement) =>
  within(article).getByLabelText<HTMLSelectElement>('Reason shown to the user');
const chooseReason = (article: HTMLElement, code: string) =>
  fireEvent.change(codeOf(article), { target: { value: code } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the review queue', () => {
  it('loads the pending queue by default with the admin token, and shows each item in full', async () => {
    const api = fakeApi({
      lists: { pending: { items: [northwatch, helix], truncated: false, nextCursor: null } },
    });
    renderQueue();

    expect(screen.getByRole('heading', { level: 1, name: 'Verification Review' })).toBeTruthy();
    expect(screen.getByText('Loading verifications...').getAttribute('role')).toBe('status');
    const article = await findCard('Northwatch Defense');
    expect(api.calls[0]).toMatchObject({
      method: 'GET',
      url: '/api/admin/verifications?status=pending',
      authorization: 'Bearer token',
    });
    const facts = within(article);
    // The status badge sits in the item's header, next to its heading.
    expect(within(article.querySelector('header') as HTMLElement).getByText('Pending review')).toBeTruthy();
    expect(facts.getByText('Defense and Government')).toBeTruthy();
    expect(facts.getByText('Defense/Military')).toBeTruthy();
    expect(facts.getByText('Dana Defense', { exact: false })).toBeTruthy();
    expect(facts.getByRole('link', { name: 'dana@northwatch-defense.example' }).getAttribute('href')).toBe(
      'mailto:dana@northwatch-defense.example',
    );
    const website = facts.getByRole('link', { name: 'https://northwatch-defense.example' });
    expect(website.getAttribute('rel')).toBe('noopener noreferrer');
    expect(facts.getByText('inq_auth0u1')).toBeTruthy();
    expect(article.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-21T06:00:00.000Z');

    const academic = within(card('Helix Bio'));
    expect(academic.getByText('Commercial')).toBeTruthy();
    expect(academic.getByText('Academic/Research')).toBeTruthy();
    expect(screen.getByText('2 verifications')).toBeTruthy();
  });

  it('names each decision form apart when two people of one organization wait together', async () => {
    const colleague = item({
      userId: 'auth0|u4',
      email: 'ben@northwatch-defense.example',
      name: 'Ben Defense',
    });
    fakeApi({ lists: { pending: { items: [northwatch, colleague], truncated: false, nextCursor: null } } });
    renderQueue();
    await screen.findAllByRole('article', { name: 'Northwatch Defense' });
    const names = screen.getAllByRole('form').map((form) => form.getAttribute('aria-label'));
    expect(names).toEqual([
      'Decision on Northwatch Defense (dana@northwatch-defense.example)',
      'Decision on Northwatch Defense (ben@northwatch-defense.example)',
    ]);
  });

  it('shows the history with who decided and the admin reasons', async () => {
    fakeApi({ lists: { rejected: { items: [rejectedBefore], truncated: false, nextCursor: null } } });
    renderQueue(paths.adminVerification.getHref('rejected'));
    const article = await findCard('Acme Pharma');
    openDetails(article);
    const history = within(article).getByRole('button', { name: 'History (3 changes)' });
    expect(history.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(history);
    const entries = within(article).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      expect.stringMatching(/^Not started → ?to ?Pending review.*By Persona.*Event: inquiry\.completed$/),
      expect.stringMatching(
        /^Pending review → ?to ?Rejected.*By Administrator \(auth0\|other-admin\)Note: The passport photo is unreadable$/,
      ),
      expect.stringMatching(/^Rejected → ?to ?Approved.*By YouNote: A new passport photo was sent by post$/),
    ]);
    expect(within(article).getByText('Commercial')).toBeTruthy();
  });

  it("shows Persona's decision that came after a reviewer's as recorded, with the reviewer's standing", async () => {
    const held = item({
      ...rejectedBefore,
      userId: 'auth0|u5',
      organizationName: 'Held Labs',
      history: [
        ...(rejectedBefore.history.slice(0, 2) as typeof rejectedBefore.history),
        {
          status: 'approved',
          previousStatus: 'rejected',
          decidedBy: 'persona',
          adminId: null,
          reason: 'inquiry.approved',
          reasonCode: 'checks_passed',
          action: 'decision_held',
          at: '2026-11-20T10:00:00.000Z',
        },
      ],
    });
    fakeApi({ lists: { rejected: { items: [held], truncated: false, nextCursor: null } } });
    renderQueue(paths.adminVerification.getHref('rejected'));
    const article = await findCard('Held Labs');
    openDetails(article);
    fireEvent.click(within(article).getByText('History (3 changes)'));
    const entries = within(article).getAllByRole('listitem');
    expect(entries.at(-1)?.textContent).toMatch(
      /^Persona decided Approved; the reviewer's decision \(Rejected\) stands.*By Persona.*Event: inquiry\.approved$/,
    );
  });

  it("loads a verification's audit trail when its disclosure opens: who did what, when and why", async () => {
    let failures = 1;
    const entry = (sequence: number, overrides: Partial<AdminAuditEntry>): AdminAuditEntry => ({
      chain: 'admin',
      sequence,
      entryId: `entry-${sequence}`,
      recordedAt: '2026-11-21T07:00:00.000Z',
      actorType: 'admin',
      actorId: 'auth0|other-admin',
      action: 'verification_decided',
      targetType: 'verification',
      targetId: 'auth0|u1',
      reasonCode: 'identity_confirmed',
      reason: null,
      details: { from: 'pending', to: 'approved', inquiryId: 'inq_u1', attempt: 1 },
      requestId: 'r-1',
      previousHash: null,
      hash: 'a'.repeat(64),
      ...overrides,
    });
    const api = fakeApi({
      lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      trail: (userId) =>
        failures-- > 0
          ? problemJson(503, { type: 'about:blank', title: 'Service Unavailable', status: 503 })
          : json(200, {
              userId,
              entries: [
                entry(4, {}),
                entry(7, {
                  actorId: 'auth0|admin-me',
                  action: 'verification_reversed',
                  reasonCode: 'document_unreadable',
                  reason: 'Second look: glare over the photo',
                  details: { from: 'approved', to: 'rejected', inquiryId: 'inq_u1', attempt: 1 },
                }),
              ],
              truncated: false,
            }),
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    // Nothing is fetched until a reviewer opens it.
    expect(api.calls.filter((call) => call.url.endsWith('/audit-trail'))).toEqual([]);
    await userEvent.click(within(article).getByText('Audit trail'));
    await within(article).findByText('The audit trail could not be loaded.');
    await userEvent.click(within(article).getByRole('button', { name: 'Try again' }));
    const reversed = await within(article).findByText('Decision reversed');
    expect(api.calls.filter((call) => call.url.endsWith('/audit-trail')).at(-1)).toMatchObject({
      url: '/api/admin/verifications/auth0%7Cu1/audit-trail',
      authorization: 'Bearer token',
    });
    const items = within(reversed.closest('ol') as HTMLElement).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Decided: Pending review →to ApprovedNov 21, 2026, 7:00\u00a0AM · By Administrator (auth0|other-admin) · ' +
        'Entry #4Reason given: Identity confirmed by a reviewer',
      'Decision reversed: Approved →to RejectedNov 21, 2026, 7:00\u00a0AM · By You · Entry #7' +
        'Reason given: Document photo unreadableWhy: Second look: glare over the photo',
    ]);
  });

  it('says when an account has no registration on file instead of guessing its organization', async () => {
    const seeded = item({
      userId: 'auth0|seeded',
      email: null,
      name: null,
      organizationName: null,
      organizationUrl: null,
      organizationType: null,
      history: [],
    });
    fakeApi({ lists: { pending: { items: [seeded], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('auth0|seeded');
    expect(within(article).getByText('No registration on file')).toBeTruthy();
    expect(within(article).getAllByText('Not on file')).toHaveLength(2);
    expect(within(article).getByText('History (0 changes)')).toBeTruthy();
  });
});

describe('the status filter', () => {
  it('lives in the URL: a link per status, the current one marked, back returns to the queue', async () => {
    const api = fakeApi({
      lists: {
        pending: { items: [northwatch], truncated: false, nextCursor: null },
        approved: { items: [{ ...helix, status: 'approved' }], truncated: false, nextCursor: null },
      },
    });
    const { router } = renderQueue();
    await findCard('Northwatch Defense');
    const filter = screen.getByRole('navigation', { name: 'Filter by status' });
    expect(within(filter).getByRole('link', { name: 'Pending' }).getAttribute('aria-current')).toBe('page');
    expect(within(filter).getByRole('link', { name: 'All' }).getAttribute('href')).toBe(
      '/admin/verification?status=all',
    );

    fireEvent.click(within(filter).getByRole('link', { name: 'Approved' }));
    await findCard('Helix Bio');
    expect(router.state.location.search).toBe('?status=approved');
    expect(screen.queryByRole('article', { name: 'Northwatch Defense' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Approved' })).toBeTruthy();
    expect(within(filter).getByRole('link', { name: 'Approved' }).getAttribute('aria-current')).toBe('page');
    expect(api.lists()).toEqual([
      '/api/admin/verifications?status=pending',
      '/api/admin/verifications?status=approved',
    ]);

    await act(() => router.navigate(-1));
    await findCard('Northwatch Defense');
    expect(router.state.location.search).toBe('');
  });

  it('opens on the filter the URL names, and on the queue for an unknown one', async () => {
    const api = fakeApi({
      lists: { rejected: { items: [rejectedBefore], truncated: false, nextCursor: null } },
    });
    renderQueue('/admin/verification?status=rejected');
    await findCard('Acme Pharma');
    cleanup();
    renderQueue('/admin/verification?status=everything');
    expect(await screen.findByText('No verifications are waiting for review.')).toBeTruthy();
    expect(api.lists()).toEqual([
      '/api/admin/verifications?status=rejected',
      '/api/admin/verifications?status=pending',
    ]);
  });

  it('never shows the previous filter’s items under the new heading while loading', async () => {
    let answerApproved: (response: Response) => void = () => {};
    fakeApi({
      lists: {
        pending: { items: [northwatch], truncated: false, nextCursor: null },
        approved: () => new Promise<Response>((resolve) => (answerApproved = resolve)),
      },
    });
    const { router } = renderQueue();
    await findCard('Northwatch Defense');
    await act(() => router.navigate(paths.adminVerification.getHref('approved')));
    expect(screen.queryByRole('article', { name: 'Northwatch Defense' })).toBeNull();
    expect(screen.getByText('Loading verifications...').getAttribute('role')).toBe('status');
    answerApproved(json(200, { items: [], truncated: false, nextCursor: null }));
    expect(await screen.findByText('No approved verifications.')).toBeTruthy();
  });
});

describe('a decision', () => {
  it('needs a reason code that fits the decision: the contract messages show on the field and nothing is sent', async () => {
    const api = fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    const code = codeOf(article);

    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    const required = await within(article).findByText('Choose the reason for the decision');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')).toContain(required.id);
    // Focus moves in an effect after the render that shows the message.
    await waitFor(() => expect(document.activeElement).toBe(code));

    // A rejection's reason cannot approve.
    chooseReason(article, 'document_unreadable');
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    expect(await within(article).findByText('This reason does not fit the decision')).toBeTruthy();

    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    expect(await within(article).findByText('The reason must be at most 1000 characters')).toBeTruthy();
    expect(api.decisions()).toEqual([]);
  });

  it('lists the reviewer codes of each offered decision, labelled with the decision', async () => {
    fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    const labels = Array.from(codeOf(article).options).map((option) => option.textContent);
    expect(labels).toContain('Approve: Identity confirmed by a reviewer');
    expect(labels).toContain('Reject: Document photo unreadable');
    // Persona's own codes are not offered.
    expect(labels.some((label) => label?.includes('Automatic'))).toBe(false);
  });

  it("offers no decision on a verification that was never submitted, nor on the admin's own", async () => {
    const cancelled = item({
      userId: 'auth0|cancelled',
      status: 'not_started',
      organizationName: 'Cancelled Corp',
      history: [],
    });
    const own = item({ userId: admin.userId, organizationName: 'Admin Org' });
    fakeApi({ lists: { all: { items: [cancelled, own], truncated: false, nextCursor: null } } });
    renderQueue(paths.adminVerification.getHref('all'));
    for (const name of ['Cancelled Corp', 'Admin Org']) {
      const article = await findCard(name);
      expect(within(article).queryByRole('button', { name: 'Approve' })).toBeNull();
      expect(within(article).queryByRole('button', { name: 'Reject' })).toBeNull();
    }
    expect(within(card('Cancelled Corp')).getByText(/Not submitted/)).toBeTruthy();
    expect(within(card('Admin Org')).getByText(/your own verification/)).toBeTruthy();
  });

  it('four-eyes: says a decision is proposed, keeps the item, shows whose proposal waits, and refuses the proposer twice', async () => {
    let proposed = false;
    const proposal = {
      decision: 'approved',
      reasonCode: 'identity_confirmed',
      adminId: admin.userId,
      at: '2026-11-21T07:00:00.000Z',
    } as const;
    fakeApi({
      lists: {
        pending: () =>
          json(200, {
            items: [{ ...northwatch, proposal: proposed ? proposal : null }],
            truncated: false,
            nextCursor: null,
          }),
      },
      decide: (userId) => {
        if (proposed)
          return problemJson(403, {
            type: problemTypes.secondReviewerRequired,
            title: 'Forbidden',
            status: 403,
            detail: 'You proposed this decision: another administrator must confirm it.',
          });
        proposed = true;
        return json(200, {
          userId,
          kycStatus: 'pending',
          reasonCode: 'identity_confirmed',
          outcome: 'proposed',
        });
      },
    });
    renderQueue();
    const user = userEvent.setup();
    let article = await findCard('Northwatch Defense');
    await user.selectOptions(codeOf(article), 'identity_confirmed');
    await user.click(within(article).getByRole('button', { name: 'Approve' }));
    await screen.findByText('Decision Proposed');
    expect(
      screen.getByText(
        'Your proposal to approve Northwatch Defense is recorded. The status changes once another administrator confirms it.',
      ),
    ).toBeTruthy();
    // The item stays, with the proposal: the proposer is told another admin must confirm it.
    const note = await screen.findByRole('note', { name: 'Awaiting a second administrator' });
    expect(note.textContent).toBe(
      'Awaiting a second administrator. You proposed to approve this verification. Reason given: Identity confirmed by a reviewer (Nov 21, 2026, 7:00\u00a0AM).Another administrator must confirm it.',
    );
    article = card('Northwatch Defense');
    await user.selectOptions(codeOf(article), 'identity_confirmed');
    await user.click(within(article).getByRole('button', { name: 'Approve' }));
    await screen.findByText('Second Administrator Needed');
    expect(
      screen.getByText('You proposed this decision. Another administrator must confirm it.'),
    ).toBeTruthy();
  });

  it.each([
    ['Approve', 'approved', 'identity_confirmed', 'Verification Approved'],
    ['Reject', 'rejected', 'document_unreadable', 'Verification Rejected'],
  ] as const)(
    '%s sends exactly {decision, reasonCode, reason} to the encoded path',
    async (button, decision, reasonCode, title) => {
      const api = fakeApi({
        lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      });
      renderQueue();
      const article = await findCard('Northwatch Defense');
      const user = userEvent.setup();
      await user.selectOptions(codeOf(article), reasonCode);
      await user.type(reasonOf(article), '  Passport and selfie match  ');
      await user.click(within(article).getByRole('button', { name: button }));

      await screen.findByText(title);
      expect(api.decisions()).toEqual([
        {
          method: 'POST',
          url: '/api/admin/verifications/auth0%7Cu1/decision',
          body: { decision, reasonCode, reason: 'Passport and selfie match' },
          authorization: 'Bearer token',
        },
      ]);
      expect(
        screen.getByText(
          `Northwatch Defense is now ${decision}. The user is notified by email, with the reason.`,
        ),
      ).toBeTruthy();
    },
  );

  it('takes the item out of the pending queue at once, then re-fetches the list without a reload', async () => {
    let pendingCalls = 0;
    let answerRefetch: (response: Response) => void = () => {};
    const api = fakeApi({
      lists: {
        pending: () => {
          pendingCalls += 1;
          if (pendingCalls === 1)
            return json(200, { items: [northwatch, helix], truncated: false, nextCursor: null });
          // The re-fetch answers late: the decision shows before it.
          return new Promise<Response>((resolve) => (answerRefetch = resolve));
        },
      },
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Northwatch Defense' })).toBeNull());
    expect(screen.getByText('1 verification')).toBeTruthy();
    // Focus goes on to the next item to review.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 3, name: 'Helix Bio' })),
    );
    await waitFor(() => expect(api.lists()).toHaveLength(2));

    answerRefetch(json(200, { items: [helix], truncated: false, nextCursor: null }));
    await waitFor(() => expect(pendingCalls).toBe(2));
    expect(screen.getByRole('article', { name: 'Helix Bio' })).toBeTruthy();
  });

  it('moves focus to the list heading after deciding the last item', async () => {
    fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'document_unreadable');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Pending review' })),
    );
    expect(await screen.findByText('No verifications are waiting for review.')).toBeTruthy();
  });

  it('under All, keeps the item and shows its new status', async () => {
    let calls = 0;
    fakeApi({
      lists: {
        all: () => {
          calls += 1;
          // The re-fetch has not seen the decision yet (an eventually consistent index).
          return json(200, { items: [northwatch], truncated: false, nextCursor: null });
        },
      },
    });
    renderQueue(paths.adminVerification.getHref('all'));
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls).toBe(2));
    await waitFor(() => expect(within(card('Northwatch Defense')).getByText('Approved')).toBeTruthy());
    // Decided: collapsed, with no open form, until the reviewer opens it.
    expect(within(card('Northwatch Defense')).queryByRole('form')).toBeNull();
    openDetails(card('Northwatch Defense'));
    // Approved already: only rejecting would change anything.
    expect(within(card('Northwatch Defense')).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(card('Northwatch Defense')).getByRole('button', { name: 'Reject' })).toBeTruthy();
  });

  it('says so and reloads the list when the verification changed meanwhile (409)', async () => {
    const api = fakeApi({
      lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      decide: () =>
        problemJson(409, {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          detail: 'The verification changed at the same time. Try again.',
        }),
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Verification Changed')).toBeTruthy();
    expect(
      screen.getByText(
        'This verification changed while you were deciding. The list has been reloaded: please review it again.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(api.lists()).toHaveLength(2));
    // The reason is kept for a second look.
    expect(reasonOf(card('Northwatch Defense')).value).toBe('Documents verified');
  });

  it("puts the API's field error on the reason (400)", async () => {
    fakeApi({
      lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      decide: () =>
        problemJson(400, {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          errors: [{ field: 'reason', message: 'The reason must be at least 3 characters' }],
        }),
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'document_unreadable');
    fireEvent.change(reasonOf(article), { target: { value: 'abc' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Reject' }));
    expect(await within(article).findByText('The reason must be at least 3 characters')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(reasonOf(article)));
  });

  it.each([
    [
      'a server error',
      () => problemJson(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 }),
    ],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('shows a clear error toast on %s and keeps the item and the reason', async (_name, answer) => {
    fakeApi({
      lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      decide: answer,
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Decision Not Saved')).toBeTruthy();
    expect(screen.getByText('Your decision could not be saved. Please try again.')).toBeTruthy();
    expect(reasonOf(card('Northwatch Defense')).value).toBe('Documents verified');
    expect(within(card('Northwatch Defense')).getByRole('button', { name: 'Approve' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('disables the buttons and says what is happening while the decision is sent', async () => {
    let answer: (response: Response) => void = () => {};
    fakeApi({
      lists: { pending: { items: [northwatch, helix], truncated: false, nextCursor: null } },
      decide: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    chooseReason(article, 'identity_confirmed');
    fireEvent.change(reasonOf(article), { target: { value: 'Documents verified' } });
    fireEvent.click(within(article).getByRole('button', { name: 'Approve' }));
    const busy = await within(article).findByRole('button', { name: 'Approving...' });
    expect(busy).toHaveProperty('disabled', true);
    expect(within(card('Helix Bio')).getByRole('button', { name: 'Approve' })).toHaveProperty(
      'disabled',
      true,
    );
    answer(
      json(200, {
        userId: 'auth0|u1',
        kycStatus: 'approved',
        reasonCode: 'identity_confirmed',
        outcome: 'decided',
      }),
    );
    await screen.findByText('Verification Approved');
  });
});

describe('keeping the list current', () => {
  it('re-fetches on Refresh', async () => {
    const api = fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    await findCard('Northwatch Defense');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.lists()).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Refresh' })).toHaveProperty('disabled', false),
    );
  });

  it('polls while the tab is visible, not while hidden, and not while a reason is being written', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let visibility: DocumentVisibilityState = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    const api = fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('Northwatch Defense');

    act(() => vi.advanceTimersByTime(queuePollIntervalMs));
    await waitFor(() => expect(api.lists()).toHaveLength(2));

    visibility = 'hidden';
    act(() => vi.advanceTimersByTime(queuePollIntervalMs));
    expect(api.lists()).toHaveLength(2);
    // Coming back to the tab catches up at once.
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(api.lists()).toHaveLength(3));

    fireEvent.change(reasonOf(article), { target: { value: 'Checking the' } });
    act(() => vi.advanceTimersByTime(queuePollIntervalMs * 2));
    expect(api.lists()).toHaveLength(3);
  });

  it('keeps the loaded items, and says so, when a refresh fails', async () => {
    let calls = 0;
    fakeApi({
      lists: {
        pending: () => {
          calls += 1;
          return calls === 1
            ? json(200, { items: [northwatch], truncated: false, nextCursor: null })
            : problemJson(503, { type: 'about:blank', title: 'Service Unavailable', status: 503 });
        },
      },
    });
    renderQueue();
    await findCard('Northwatch Defense');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(
      await screen.findByText('The list could not be refreshed; it shows the verifications loaded before.'),
    ).toBeTruthy();
    expect(card('Northwatch Defense')).toBeTruthy();
  });

  it('offers to try again when the first load fails', async () => {
    let calls = 0;
    fakeApi({
      lists: {
        pending: () => {
          calls += 1;
          return calls === 1
            ? problemJson(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 })
            : json(200, { items: [northwatch], truncated: false, nextCursor: null });
        },
      },
    });
    renderQueue();
    expect(await screen.findByText('The verifications could not be loaded')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await findCard('Northwatch Defense')).toBeTruthy();
  });

  it('says when a search stopped before the end of the filter', async () => {
    fakeApi({ lists: { pending: { items: [northwatch], truncated: true, nextCursor: 'next' } } });
    renderQueue();
    expect(
      await screen.findByText(
        'The search stopped after the first 5,000 verifications of this filter: the next page searches on.',
      ),
    ).toBeTruthy();
  });
});

describe('a workspace that scales and shows the evidence (ADR 0082)', () => {
  const approvedHelix = item({
    ...helix,
    status: 'approved',
    decidedBy: 'persona',
    reasonCode: 'checks_passed',
  });

  it('collapses decided cards: a summary, no form, and Show details opens the rest', async () => {
    fakeApi({
      lists: {
        all: { items: [northwatch, approvedHelix, rejectedBefore], truncated: false, nextCursor: null },
      },
    });
    renderQueue(paths.adminVerification.getHref('all'));
    const pending = await findCard('Northwatch Defense');
    // The card still to decide is open, with its form.
    expect(within(pending).getByRole('form')).toBeTruthy();
    expect(within(pending).queryByRole('button', { name: /^Show details/ })).toBeNull();

    const approved = card('Helix Bio');
    expect(within(approved).queryByRole('form')).toBeNull();
    expect(within(approved).queryByLabelText('Internal note (optional)')).toBeNull();
    expect(approved.textContent).toContain('Reason given: Automatic checks passed');
    expect(approved.textContent).toContain('Decided by Persona');
    const toggle = within(approved).getByRole('button', { name: 'Show details: Helix Bio' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(within(approved).getByRole('form', { name: /^Decision on Helix Bio/ })).toBeTruthy();
    fireEvent.click(within(approved).getByRole('button', { name: 'Hide details: Helix Bio' }));
    expect(within(approved).queryByRole('form')).toBeNull();
    // The rejected one stays collapsed: each card is opened on its own.
    expect(within(card('Acme Pharma')).queryByRole('form')).toBeNull();
  });

  it('shows History as a button that says whether it is open', async () => {
    fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    const history = within(article).getByRole('button', { name: /^History \(/ });
    expect(history.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(history.getAttribute('aria-controls') ?? '');
    expect(panel?.hidden).toBe(true);
    fireEvent.click(history);
    expect(history.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hidden).toBe(false);
  });

  it("links the inquiry to Persona's dashboard and loads why Persona flagged it only when opened", async () => {
    const api = fakeApi({
      lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } },
      evidence: (userId) =>
        json(200, {
          userId,
          inquiryId: 'inq_auth0u1',
          inquiryStatus: 'needs_review',
          redacted: false,
          dashboardUrl: 'https://app.withpersona.com/dashboard/inquiries/inq_auth0u1',
          verifications: [
            { id: 'ver_1', type: 'government-id', status: 'passed', failedChecks: [] },
            {
              id: 'ver_2',
              type: 'selfie',
              status: 'failed',
              failedChecks: [
                {
                  name: 'selfie_id_comparison',
                  status: 'failed',
                  reasons: ['The face in the selfie does not match the portrait on the ID.'],
                },
              ],
            },
          ],
        }),
    });
    renderQueue();
    const article = await findCard('Northwatch Defense');
    const link = within(article).getByRole('link', { name: /^Open in Persona/ });
    expect(link.getAttribute('href')).toBe('https://app.withpersona.com/dashboard/inquiries/inq_auth0u1');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.textContent).toContain('inq_auth0u1, opens in a new tab');
    expect(api.calls.filter((call) => call.url.endsWith('/evidence'))).toEqual([]);

    await userEvent.click(within(article).getByRole('button', { name: 'Why Persona flagged it' }));
    const check = await within(article).findByText('Selfie id comparison');
    expect(api.calls.filter((call) => call.url.endsWith('/evidence'))).toEqual([
      expect.objectContaining({
        url: '/api/admin/verifications/auth0%7Cu1/evidence',
        authorization: 'Bearer token',
      }),
    ]);
    expect(check.closest('li')?.textContent).toBe(
      'Selfie id comparison selfie_id_comparison: The face in the selfie does not match the portrait on the ID.',
    );
    expect(article.textContent).toContain('Selfie verification: Failed');
    expect(article.textContent).toContain("Persona's inquiry status: Needs review");
    // Only failing verifications are listed.
    expect(article.textContent).not.toContain('Government id verification');
  });

  it('says on the card which checks Persona flagged, from the list alone: no disclosure, no request', async () => {
    const flagged = item({
      userId: 'auth0|u3',
      organizationName: 'Flagged Labs',
      email: 'flo@flagged-labs.example',
      flaggedChecks: [
        { type: 'selfie', name: 'selfie_id_comparison' },
        { type: 'government-id', name: 'id_expired' },
      ],
    });
    const declined = item({
      ...helix,
      status: 'rejected',
      decidedBy: 'persona',
      reasonCode: 'checks_declined',
      flaggedChecks: [{ type: 'government-id', name: 'id_tamper_detection' }],
    });
    const api = fakeApi({
      lists: { all: { items: [flagged, northwatch, declined], truncated: false, nextCursor: null } },
    });
    renderQueue(paths.adminVerification.getHref('all'));
    const article = await findCard('Flagged Labs');
    const line = within(article).getByText('Flagged by Persona:').closest('p');
    expect(line?.textContent).toBe('Flagged by Persona: Selfie id comparison, Id expired');
    // The disclosure with the reasons is still there, closed; nothing was asked of Persona.
    expect(
      within(article).getByRole('button', { name: 'Why Persona flagged it' }).getAttribute('aria-expanded'),
    ).toBe('false');
    expect(api.calls.filter((call) => call.url.endsWith('/evidence'))).toEqual([]);
    // A decided card shows it while collapsed; a card without failed checks shows no line.
    const collapsed = card('Helix Bio');
    expect(within(collapsed).queryByRole('form')).toBeNull();
    expect(collapsed.textContent).toContain('Flagged by Persona: Id tamper detection');
    expect(card('Northwatch Defense').textContent).not.toContain('Flagged by Persona');
  });

  it('searches by organization or email through the URL, from the first page, and clears it', async () => {
    const api = fakeApi({ lists: { pending: { items: [northwatch], truncated: false, nextCursor: null } } });
    const { router } = renderQueue();
    await findCard('Northwatch Defense');
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search by organization or email' }),
      ' helix ',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=helix'));
    await waitFor(() => expect(api.lists().at(-1)).toBe('/api/admin/verifications?status=pending&q=helix'));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Pending review matching "helix"');
    await userEvent.click(screen.getByRole('link', { name: 'Clear search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says when nothing matches a search', async () => {
    fakeApi({ lists: { pending: { items: [], truncated: false, nextCursor: null } } });
    renderQueue('/admin/verification?q=nobody');
    expect(await screen.findByText('No verification of this filter matches "nobody".')).toBeTruthy();
  });

  it('orders oldest first on request, and pages with Next page and First page', async () => {
    const cursor = 'WyIyMDI2LTExLTIxVDA2OjAwOjAwLjAwMFoiLCJhdXRoMHx1MSJd';
    const api = fakeApi({
      lists: {
        pending: () =>
          json(200, {
            items: [northwatch],
            truncated: false,
            nextCursor: api.lists().at(-1)?.includes('cursor=') ? null : cursor,
          }),
      },
    });
    const { router } = renderQueue();
    await findCard('Northwatch Defense');
    fireEvent.change(screen.getByRole('combobox', { name: 'Order' }), { target: { value: 'oldest' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=oldest'));
    await waitFor(() =>
      expect(api.lists().at(-1)).toBe('/api/admin/verifications?status=pending&sort=oldest'),
    );

    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(screen.getByText('1 verification on this page')).toBeTruthy();
    expect(within(pages).queryByRole('link', { name: 'First page' })).toBeNull();
    await userEvent.click(within(pages).getByRole('link', { name: 'Next page' }));
    await waitFor(() =>
      expect(api.lists().at(-1)).toBe(`/api/admin/verifications?status=pending&sort=oldest&cursor=${cursor}`),
    );
    const next = await screen.findByRole('navigation', { name: 'Pages' });
    await within(next).findByRole('link', { name: 'First page' });
    expect(within(next).queryByRole('link', { name: 'Next page' })).toBeNull();
    await userEvent.click(within(next).getByRole('link', { name: 'First page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=oldest'));
  });
});
