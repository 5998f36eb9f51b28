// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsentHistoryRecord } from '#contracts/consent.ts';
import type { MeResponse } from '#contracts/me.ts';
import { installDialogShim } from '#tests/web/dialog-shim.ts';
import { renderScreen } from '#tests/web/features/dashboards/render-screen.tsx';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { Component as UserAccount } from '#web/features/account/screens/user-account.tsx';
import { formatDateTime } from '#web/lib/dates.ts';

// /user-account: the profile, the caller's own consent history, a data-deletion request for the
// caller's own address only, and Log Out.

interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}
type Handler = (request: ApiCall) => Promise<Response>;

/** Stubs fetch; every call is recorded with its parsed body. */
function stubApi(handler: Handler) {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const request = {
        method: init.method ?? 'GET',
        path: input,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: new Headers(init.headers),
      };
      calls.push(request);
      return handler(request);
    }),
  );
  return calls;
}

const record = (overrides: Partial<ConsentHistoryRecord>): ConsentHistoryRecord => ({
  consentId: `c-${Math.random()}`,
  purpose: 'identity_verification',
  action: 'granted',
  statements: { identity_verification_consent: true },
  documentVersion: '2026-11-01',
  documentSha256: 'a'.repeat(64),
  locale: 'en',
  method: 'consent_dialog',
  recordedAt: '2026-11-02T09:30:00.000Z',
  sequence: 1,
  hash: 'b'.repeat(64),
  previousHash: null,
  ...overrides,
});

const registration = record({
  consentId: 'terms',
  purpose: 'terms_of_service',
  documentVersion: '2025-06-08',
  method: 'registration_wizard',
  recordedAt: '2026-10-30T08:00:00.000Z',
  sequence: 1,
});
const granted = record({ consentId: 'granted', recordedAt: '2026-11-02T09:30:00.000Z', sequence: 2 });
const withdrawn = record({
  consentId: 'withdrawn',
  action: 'withdrawn',
  recordedAt: '2026-11-05T16:45:00.000Z',
  sequence: 3,
});

const history = (records: ConsentHistoryRecord[]) => json(200, { records });

function open(me: Partial<MeResponse> = {}, handler: Handler = async () => history([])) {
  const calls = stubApi(handler);
  const view = renderScreen(UserAccount, { path: '/user-account', me });
  return { ...view, calls };
}

const region = (name: string) => screen.getByRole('region', { name });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the account screen', () => {
  it('names itself in its focused heading', async () => {
    open();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Your Account' }));
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('shows the profile with the organization and the verification status in words', async () => {
    open({
      name: 'Casey Commercial',
      email: 'casey@acme-pharma.example',
      organizationName: 'Acme Pharma',
      organizationType: 'academic',
      kycStatus: 'pending',
    });
    const profile = region('Profile');
    const terms = within(profile)
      .getAllByRole('term')
      .map((term) => term.textContent);
    const values = within(profile)
      .getAllByRole('definition')
      .map((value) => value.textContent);
    expect(Object.fromEntries(terms.map((term, index) => [term, values[index]]))).toEqual({
      Name: 'Casey Commercial',
      Email: 'casey@acme-pharma.example',
      Organization: 'Acme Pharma',
      'Organization type': 'Academic/Research',
      'Identity verification': 'Under Review',
    });
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('says "Not set" for an account without organization (seeded, admin)', async () => {
    open({ organizationName: null, organizationType: null, kycStatus: 'rejected' });
    const profile = region('Profile');
    expect(within(profile).getAllByText('Not set')).toHaveLength(2);
    expect(within(profile).getByText('Not Approved')).toBeTruthy();
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('offers the way back: the dashboard when approved, onboarding otherwise', async () => {
    open({ kycStatus: 'approved', organizationType: 'defense' });
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/defense-dashboard',
    );
    await screen.findByText('No consents are recorded for your account yet.');
    cleanup();
    open({ kycStatus: 'not_started', consentRecorded: false });
    expect(screen.getByRole('link', { name: 'Continue Onboarding' }).getAttribute('href')).toBe('/kyc/start');
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('logs out through the session', async () => {
    const { session } = open();
    fireEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(session.logout).toHaveBeenCalledTimes(1);
    await screen.findByText('No consents are recorded for your account yet.');
  });
});

describe('consent history', () => {
  it('asks for the caller’s own records with the session token', async () => {
    const { calls } = open();
    await screen.findByText('No consents are recorded for your account yet.');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.path).toBe('/api/me/consents');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token');
  });

  it('lists granted and withdrawn records newest first, with purpose, date and text version', async () => {
    open({}, async () => history([registration, granted, withdrawn]));
    const list = await within(region('Consent History')).findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [first, second, third] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText('Identity verification consent')).toBeTruthy();
    expect(within(first).getByText('Withdrawn')).toBeTruthy();
    expect(within(second).getByText('Granted')).toBeTruthy();
    expect(within(second).getByText('Text version 2026-11-01')).toBeTruthy();
    expect(within(second).getByText('In the consent dialog')).toBeTruthy();
    expect(within(third).getByText('Terms of service')).toBeTruthy();
    expect(within(third).getByText('Text version 2025-06-08')).toBeTruthy();
    expect(within(third).getByText('At registration')).toBeTruthy();

    const time = within(first).getByText(formatDateTime(withdrawn.recordedAt).replace('\u00a0', ' '));
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('dateTime')).toBe('2026-11-05T16:45:00.000Z');
  });

  it('says so when nothing is recorded yet', async () => {
    open({}, async () => history([]));
    const message = await within(region('Consent History')).findByText(
      'No consents are recorded for your account yet.',
    );
    expect(message).toBeTruthy();
    expect(within(region('Consent History')).queryByRole('list')).toBeNull();
  });

  it('shows its loading state in the space the list will take', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = open({}, () => new Promise((resolve) => (answer = resolve)));
    await waitFor(() => expect(calls).toHaveLength(1));
    const box = within(region('Consent History')).getByRole('status').parentElement;
    expect(box?.getAttribute('aria-busy')).toBe('true');
    expect(within(region('Consent History')).getByRole('status').textContent).toBe(
      'Loading your consent history...',
    );
    await act(async () => answer(history([granted])));
    expect((await within(region('Consent History')).findByRole('list')).parentElement).toBe(box);
    expect(box?.getAttribute('aria-busy')).toBe('false');
  });

  it('reports a failure and loads again on Try Again', async () => {
    let failing = true;
    const { calls } = open({}, async () =>
      failing
        ? problemJson(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 })
        : history([granted]),
    );
    const alert = await within(region('Consent History')).findByRole('alert');
    expect(alert.textContent).toContain('Your consent history could not be loaded.');
    failing = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await within(region('Consent History')).findByText('Granted')).toBeTruthy();
    expect(within(region('Consent History')).queryByRole('alert')).toBeNull();
    expect(calls.filter((call) => call.path === '/api/me/consents')).toHaveLength(2);
  });
});

describe('data deletion request', () => {
  const accepted = { requestId: 'del_01JXYZ', dueBy: '2026-12-04' };

  function openForDeletion(answer: () => Promise<Response> = async () => json(202, accepted)) {
    return open({ email: 'casey@acme-pharma.example' }, async (request) =>
      request.path === '/api/me/consents' ? history([]) : answer(),
    );
  }

  const deletion = () => region('Delete Your Data');
  const details = () => within(deletion()).getByRole('textbox', { name: /Details/ });
  const deletionCalls = (calls: ApiCall[]) =>
    calls.filter((call) => call.path === '/api/me/data-deletion-requests');

  it('is for the account’s own address, which cannot be edited', async () => {
    openForDeletion();
    expect(within(deletion()).getByText('casey@acme-pharma.example')).toBeTruthy();
    expect(within(deletion()).getAllByRole('textbox')).toEqual([details()]);
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('asks for confirmation before sending, and sends nothing when cancelled', async () => {
    const { calls } = openForDeletion();
    fireEvent.change(details(), { target: { value: 'Also the newsletter.' } });
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));

    const question = await within(deletion()).findByRole('heading', {
      name: 'Confirm your deletion request',
    });
    await waitFor(() => expect(document.activeElement).toBe(question));
    expect(within(deletion()).getByText(/hold about casey@acme-pharma\.example/)).toBeTruthy();
    expect(deletionCalls(calls)).toEqual([]);

    fireEvent.click(within(deletion()).getByRole('button', { name: 'Cancel' }));
    const again = await within(deletion()).findByRole('button', { name: 'Request Deletion' });
    await waitFor(() => expect(document.activeElement).toBe(again));
    expect(within(deletion()).queryByRole('heading', { name: 'Confirm your deletion request' })).toBeNull();
    expect((details() as HTMLTextAreaElement).value).toBe('Also the newsletter.');
    expect(deletionCalls(calls)).toEqual([]);
  });

  it('sends only the details, with the access token (which names the address), then shows the request id and due date', async () => {
    const { calls } = openForDeletion();
    fireEvent.change(details(), { target: { value: 'Also the newsletter.' } });
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    fireEvent.click(await within(deletion()).findByRole('button', { name: 'Send Deletion Request' }));

    const receipt = await within(deletion()).findByRole('heading', { name: 'Request received' });
    await waitFor(() => expect(document.activeElement).toBe(receipt));
    const sent = deletionCalls(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST' });
    expect(sent[0]?.body).toEqual({ details: 'Also the newsletter.' });
    // A `user` route: the token names the account, so the address, and confirms the request.
    expect(sent[0]?.headers.get('Authorization')).toMatch(/^Bearer /);

    expect(within(deletion()).getByText('del_01JXYZ')).toBeTruthy();
    const due = within(deletion()).getByText('December 4, 2026');
    expect(due.tagName).toBe('TIME');
    expect(due.getAttribute('dateTime')).toBe('2026-12-04');
    // The pending request replaces the form: no second request from this page (ADR 0076).
    expect(within(deletion()).queryByRole('button', { name: 'Request Deletion' })).toBeNull();
    expect(within(deletion()).getByRole('button', { name: 'Cancel Deletion Request' })).toBeTruthy();
  });

  it('sends an empty request when no details were given', async () => {
    const { calls } = openForDeletion();
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    fireEvent.click(await within(deletion()).findByRole('button', { name: 'Send Deletion Request' }));
    await within(deletion()).findByText('del_01JXYZ');
    expect(deletionCalls(calls)[0]?.body).toEqual({});
  });

  it('shows the busy state while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = openForDeletion(() => new Promise((resolve) => (answer = resolve)));
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    fireEvent.click(await within(deletion()).findByRole('button', { name: 'Send Deletion Request' }));
    const busy = await within(deletion()).findByRole('button', { name: 'Sending...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect((within(deletion()).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await waitFor(() => expect(deletionCalls(calls)).toHaveLength(1));
    await act(async () => answer(json(202, accepted)));
    expect(await within(deletion()).findByText('del_01JXYZ')).toBeTruthy();
  });

  it('toasts a failure and lets the person try again', async () => {
    openForDeletion(async () =>
      problemJson(503, { type: 'about:blank', title: 'Service Unavailable', status: 503 }),
    );
    fireEvent.change(details(), { target: { value: 'Please hurry.' } });
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    fireEvent.click(await within(deletion()).findByRole('button', { name: 'Send Deletion Request' }));

    const toast = await screen.findByText('Your deletion request could not be sent. Please try again.');
    expect(within(screen.getByRole('alert', { name: 'Errors' })).getByText('Request Failed')).toBeTruthy();
    expect(toast).toBeTruthy();
    const again = within(deletion()).getByRole('button', { name: 'Request Deletion' });
    await waitFor(() => expect(document.activeElement).toBe(again));
    expect(within(deletion()).queryByText('Request received')).toBeNull();
    expect((details() as HTMLTextAreaElement).value).toBe('Please hurry.');
  });

  it('checks the details against the contract before asking', async () => {
    const { calls } = openForDeletion();
    fireEvent.change(details(), { target: { value: 'x'.repeat(5001) } });
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    expect(await within(deletion()).findByText('Details must be at most 5000 characters')).toBeTruthy();
    expect(within(deletion()).queryByRole('heading', { name: 'Confirm your deletion request' })).toBeNull();
    expect(deletionCalls(calls)).toEqual([]);
  });

  it('puts the API’s field error on the field', async () => {
    openForDeletion(async () =>
      problemJson(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        errors: [{ field: 'details', message: 'Details must be at most 5000 characters' }],
      }),
    );
    fireEvent.change(details(), { target: { value: 'Some details' } });
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Request Deletion' }));
    fireEvent.click(await within(deletion()).findByRole('button', { name: 'Send Deletion Request' }));
    expect(await within(deletion()).findByText('Details must be at most 5000 characters')).toBeTruthy();
    expect(details().getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(details()));
  });

  const pending = {
    requestId: '6f1c2b1e-8d3a-4c55-9a7e-2b4d6c8e0f11',
    status: 'received' as const,
    requestedAt: '2026-11-04T10:15:00.000Z',
    dueBy: '2026-12-04',
    cancellable: true,
  };
  const cancelCalls = (calls: ApiCall[]) => calls.filter((call) => call.method === 'DELETE');

  it('shows a pending request with its dates after a reload, instead of the form', async () => {
    open({ deletionRequest: pending });
    const heading = within(deletion()).getByRole('heading', { name: 'Deletion requested' });
    expect(heading).toBeTruthy();
    const times = within(deletion()).getAllByText((_, element) => element?.tagName === 'TIME');
    expect(times.map((time) => time.getAttribute('dateTime'))).toEqual([pending.requestedAt, pending.dueBy]);
    expect(within(deletion()).getByText(/Requested on/).textContent).toMatch(/due by/);
    expect(within(deletion()).getByText(pending.requestId)).toBeTruthy();
    expect(within(deletion()).queryByRole('button', { name: 'Request Deletion' })).toBeNull();
    await screen.findByText('No consents are recorded for your account yet.');
  });

  it('cancels the pending request with the token, then offers the form again', async () => {
    const { calls, session } = open({ deletionRequest: pending }, async (request) =>
      request.method === 'DELETE'
        ? json(200, { requestId: pending.requestId, status: 'cancelled' })
        : history([]),
    );
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Cancel Deletion Request' }));
    const again = await within(deletion()).findByRole('button', { name: 'Request Deletion' });
    expect(cancelCalls(calls)).toEqual([
      expect.objectContaining({ path: `/api/me/data-deletion-requests/${pending.requestId}` }),
    ]);
    expect(cancelCalls(calls)[0]?.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(await screen.findByText('Your deletion request is cancelled. Nothing was deleted.')).toBeTruthy();
    expect(session.refreshMe).toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(again));
  });

  it('says when the request is already being carried out, and offers no cancel then', async () => {
    open({ deletionRequest: pending }, async (request) =>
      request.method === 'DELETE'
        ? problemJson(409, {
            type: 'https://platform.example/problems/deletion-not-cancellable',
            title: 'Conflict',
            status: 409,
          })
        : history([]),
    );
    fireEvent.click(within(deletion()).getByRole('button', { name: 'Cancel Deletion Request' }));
    expect(
      await screen.findByText('We have started carrying out your request: it can no longer be cancelled.'),
    ).toBeTruthy();
    cleanup();
    open({ deletionRequest: { ...pending, status: 'in_progress', cancellable: false } });
    expect(within(deletion()).queryByRole('button', { name: 'Cancel Deletion Request' })).toBeNull();
    expect(within(deletion()).getByText(/can no longer be cancelled/)).toBeTruthy();
  });
});

describe('withdrawing consent (GDPR Art. 7(3))', () => {
  installDialogShim();
  const withdrawal = record({
    consentId: 'withdrawal',
    action: 'withdrawn',
    method: 'account_page',
    recordedAt: '2026-11-27T09:00:00.000Z',
    sequence: 3,
  });

  function openWithConsent(answerWithdrawal: () => Promise<Response> = async () => json(201, withdrawal)) {
    let withdrawnYet = false;
    const view = open({ consentRecorded: true }, async (request) => {
      if (request.path === '/api/me/consent-withdrawals') {
        const response = await answerWithdrawal();
        withdrawnYet = response.status === 201;
        return response;
      }
      return history(withdrawnYet ? [registration, granted, withdrawal] : [registration, granted]);
    });
    return view;
  }
  const withdrawals = (calls: ApiCall[]) =>
    calls.filter((call) => call.path === '/api/me/consent-withdrawals');

  it('says the consequences before anything happens, withdraws on confirmation, confirms it and shows it at once', async () => {
    const { calls, session } = openWithConsent();
    await within(region('Consent History')).findByRole('list');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent' }));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw your consent to identity verification?' });
    expect(dialog.textContent).toContain('A verification that is not decided yet is cancelled');
    expect(dialog.textContent).toContain(
      'we keep its record and evidence for 5 years after your account is closed',
    );
    // Nothing happened yet, and the safe choice has the focus.
    expect(withdrawals(calls)).toEqual([]);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep my consent' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw consent' }));
    expect(await screen.findByText('Your consent is withdrawn.')).toBeTruthy();
    expect(withdrawals(calls)).toEqual([
      expect.objectContaining({ method: 'POST', body: { consent_type: 'identity_verification' } }),
    ]);
    expect(withdrawals(calls)[0]?.headers.get('Authorization')).toBe('Bearer token');
    const list = await within(region('Consent History')).findByRole('list');
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('Withdrawn'));
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('On your account page');
    expect(session.refreshMe).toHaveBeenCalled();
    expect(dialog.hasAttribute('open')).toBe(false);
  });

  it('changes nothing when the person keeps their consent', async () => {
    const { calls } = openWithConsent();
    await within(region('Consent History')).findByRole('list');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep my consent' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(withdrawals(calls)).toEqual([]);
  });

  it('says when there is nothing to withdraw (409 consent-not-active)', async () => {
    openWithConsent(async () =>
      problemJson(409, {
        type: 'https://platform.example/problems/consent-not-active',
        title: 'Consent not active',
        status: 409,
      }),
    );
    await within(region('Consent History')).findByRole('list');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Withdraw consent' }));
    expect(
      await screen.findByText('There is no consent to withdraw: it was never given or is already withdrawn.'),
    ).toBeTruthy();
  });

  const notice = () =>
    screen.getByRole('region', { name: 'Your consent to identity verification is withdrawn' });
  const paragraphs = (element: HTMLElement) =>
    Array.from(element.querySelectorAll('p'), (paragraph) => paragraph.textContent);
  const stopped =
    'We no longer process your data for identity verification, and no verification can start until you give your consent again.';
  const keptEvidence =
    'Your verification had already been decided, so we keep its record and evidence for 5 years after your account is closed, because anti-money-laundering law requires it (§\u00a08(4) GwG, EU Directive 2015/849, Art.\u00a040). We use it for nothing else.';
  const keptConsents =
    'We keep the records of your consent and of its withdrawal for 10 years after your account is closed, as proof of what you agreed to and when (GDPR Art.\u00a07(1)). Nothing else is processed.';

  it('after the withdrawal, a standing notice says what is kept, why and until when, and has the focus', async () => {
    openWithConsent();
    await within(region('Consent History')).findByRole('list');
    expect(screen.queryByRole('region', { name: /is withdrawn/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw consent' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Withdraw consent' }));

    await screen.findByText('Your consent is withdrawn.');
    // The account (approvedCommercial) was decided: its evidence is kept by law.
    expect(paragraphs(notice())).toEqual([stopped, keptEvidence, keptConsents]);
    expect(document.activeElement).toBe(
      within(notice()).getByRole('heading', { name: 'Your consent to identity verification is withdrawn' }),
    );
    // Nothing left to withdraw.
    expect(screen.queryByRole('button', { name: 'Withdraw consent' })).toBeNull();
  });

  it('the notice stands after a reload (GET /api/me says consentWithdrawn), for a decided verification', async () => {
    open({ consentRecorded: false, consentWithdrawn: true, kycStatus: 'rejected' }, async () =>
      history([registration, granted, withdrawal]),
    );
    await within(region('Consent History')).findByRole('list');
    expect(paragraphs(notice())).toEqual([stopped, keptEvidence, keptConsents]);
    expect(within(notice()).queryByRole('link')).toBeNull();
  });

  it('for an undecided verification it says it was stopped, and offers the way to consent again', async () => {
    open(
      {
        consentRecorded: false,
        consentWithdrawn: true,
        kycStatus: 'pending',
        kycAttempts: { used: 1, max: 3 },
      },
      async () => history([registration, granted, withdrawal]),
    );
    await within(region('Consent History')).findByRole('list');
    expect(paragraphs(notice())).toEqual([
      stopped,
      'Your verification had not been decided yet, so we stopped it at our verification provider: it will not be decided.',
      keptConsents,
      'Give consent again',
    ]);
    // A submitted verification: the status screen offers the consent dialog.
    expect(within(notice()).getByRole('link', { name: 'Give consent again' }).getAttribute('href')).toBe(
      '/auth/kyc-complete',
    );
    cleanup();
    open({ consentRecorded: false, consentWithdrawn: true, kycStatus: 'not_started' }, async () =>
      history([registration, granted, withdrawal]),
    );
    await within(region('Consent History')).findByRole('list');
    expect(within(notice()).getByRole('link', { name: 'Give consent again' }).getAttribute('href')).toBe(
      '/kyc/start',
    );
  });

  it('shows no notice to someone who never consented, or who consented again', async () => {
    open({ consentRecorded: false, consentWithdrawn: false }, async () => history([registration]));
    await within(region('Consent History')).findByRole('list');
    expect(screen.queryByRole('region', { name: /is withdrawn/ })).toBeNull();
    cleanup();
    open({ consentRecorded: true, consentWithdrawn: false }, async () =>
      history([registration, granted, withdrawal, record({ consentId: 'again', sequence: 4 })]),
    );
    await within(region('Consent History')).findByRole('list');
    expect(screen.queryByRole('region', { name: /is withdrawn/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Withdraw consent' })).toBeDefined();
  });

  it('offers no withdrawal while no consent is given', async () => {
    open({ consentRecorded: false }, async () => history([registration]));
    await within(region('Consent History')).findByRole('list');
    expect(screen.queryByRole('button', { name: 'Withdraw consent' })).toBeNull();
  });
});
