// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { registrationMessages } from '#contracts/registration.ts';
import { renderPage } from '#tests/web/render-route.tsx';
import { json, problem, problemJson, stubApi } from '#tests/web/stub-api.ts';

// The /register wizard through the real routes and layout: each step checks its own fields against
// the contract before the next one shows, progress survives a reload, and the API's answers end
// up on the right field, step and toast.

const storageKey = 'registration_data';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

type Page = Awaited<ReturnType<typeof renderPage>>;

/** The step on show: its heading names it ("Step 2 of 3 Organization"); hidden steps are not in the accessibility tree. */
function currentStep(page: Page): string {
  const headings = page.main.getAllByRole('heading', { level: 2 });
  expect(headings).toHaveLength(1);
  return headings[0]?.textContent ?? '';
}

function expectFieldError(page: Page, label: string, message: string) {
  const control = page.main.getByLabelText(label);
  expect(control.getAttribute('aria-invalid')).toBe('true');
  const error = page.main.getByText(message);
  expect((control.getAttribute('aria-describedby') ?? '').split(' ')).toContain(error.id);
}

const input = (page: Page, label: string) => page.main.getByLabelText<HTMLInputElement>(label);

/** Types `text` into a field at once (a paste: the same change events as typing, far fewer of them). */
async function fill(page: Page, label: string, text: string) {
  await page.user.click(input(page, label));
  await page.user.paste(text);
}

async function fillStep1(page: Page, email = 'ada@helix-labs.example') {
  await fill(page, 'Full name', ' Ada Lovelace ');
  await fill(page, 'Job title', 'Chief Scientist');
  await fill(page, 'Business email', email);
  await fill(page, 'Phone number', '+49 30 1234567');
}

async function fillStep2(page: Page) {
  await fill(page, 'Organization name', 'Helix Labs');
  await fill(page, 'Website', 'helix-labs.example');
  await page.user.selectOptions(page.main.getByLabelText('Organization type'), 'Defense/Military');
}

async function agreeToAll(page: Page) {
  for (const name of [
    'I agree to the terms of service.',
    'I agree to the privacy policy.',
    'I agree to the non-harmful use policy: the platform is never used to create or enhance pathogens.',
  ]) {
    await page.user.click(page.main.getByRole('checkbox', { name }));
  }
}

const press = (page: Page, name: string) => page.user.click(page.main.getByRole('button', { name }));

/** Step 3, everything filled and agreed. */
async function readyToSubmit(page: Page) {
  await fillStep1(page);
  await press(page, 'Continue');
  await fillStep2(page);
  await press(page, 'Continue');
  await agreeToAll(page);
}

const expectedBody = {
  responsibleName: 'Ada Lovelace',
  responsibleTitle: 'Chief Scientist',
  responsibleEmail: 'ada@helix-labs.example',
  responsiblePhone: '+49 30 1234567',
  organizationName: 'Helix Labs',
  organizationUrl: 'https://helix-labs.example',
  organizationType: 'defense',
  termsAgreed: true,
  privacyAgreed: true,
  nonHarmAgreed: true,
  website: '',
};

describe('step 1: the responsible party', () => {
  it('refuses empty fields with the contract messages, focuses the first, and does not advance', async () => {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');
    expect(currentStep(page)).toMatch(/^Step 1 of 3\s+Responsible party$/);

    await press(page, 'Continue');

    expectFieldError(page, 'Full name', registrationMessages.responsibleName);
    expectFieldError(page, 'Job title', registrationMessages.responsibleTitle);
    expectFieldError(page, 'Business email', businessEmailMessages.required);
    expectFieldError(page, 'Phone number', registrationMessages.responsiblePhone);
    expect(document.activeElement).toBe(input(page, 'Full name'));
    expect(currentStep(page)).toMatch(/^Step 1 of 3/);
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('refuses a personal email address on the email field before anything is sent', async () => {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');

    await fillStep1(page, 'ada@gmail.com');
    await press(page, 'Continue');

    expectFieldError(page, 'Business email', businessEmailMessages.personal);
    expect(document.activeElement).toBe(input(page, 'Business email'));
    expect(input(page, 'Full name').getAttribute('aria-invalid')).toBeNull();
    expect(currentStep(page)).toMatch(/^Step 1 of 3/);
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('goes on with Enter in a field, once the step is valid, and moves focus to the next heading', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await page.user.type(input(page, 'Phone number'), '{Enter}');

    expect(currentStep(page)).toMatch(/^Step 2 of 3\s+Organization$/);
    expect(document.activeElement).toBe(page.main.getByRole('heading', { level: 2 }));
  });
});

describe('step 2: the organization', () => {
  it('refuses an empty name, a website that is not http(s) and no organization type', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');

    await fill(page, 'Website', 'ftp://helix-labs.example');
    await press(page, 'Continue');

    expectFieldError(page, 'Organization name', registrationMessages.organizationName);
    expectFieldError(page, 'Website', registrationMessages.organizationUrl);
    expectFieldError(page, 'Organization type', 'Please choose an organization type');
    expect(document.activeElement).toBe(input(page, 'Organization name'));
    expect(currentStep(page)).toMatch(/^Step 2 of 3/);
  });

  it('offers the four organization types after a placeholder', async () => {
    const page = await renderPage('/register');
    const select = page.main.getByLabelText<HTMLSelectElement>('Organization type');
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ['', 'Select organization type'],
      ['commercial', 'Commercial/Enterprise'],
      ['academic', 'Academic/Research'],
      ['government', 'Government'],
      ['defense', 'Defense/Military'],
    ]);
    expect(select.value).toBe('');
  });

  it('goes Back to step 1 with everything still typed, and forward again to what step 2 held', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    await fill(page, 'Organization name', 'Helix Labs');

    await press(page, 'Back');

    expect(currentStep(page)).toMatch(/^Step 1 of 3/);
    expect(document.activeElement).toBe(page.main.getByRole('heading', { level: 2 }));
    expect(input(page, 'Full name').value).toBe(' Ada Lovelace ');
    expect(input(page, 'Business email').value).toBe('ada@helix-labs.example');
    await press(page, 'Continue');
    expect(input(page, 'Organization name').value).toBe('Helix Labs');
  });
});

describe('each step is a history entry (ADR 0086)', () => {
  it("goes from step 2 to step 1 with the browser's Back, values kept, and forward again", async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    expect(page.router.state.location.search).toBe('?step=2');
    await fill(page, 'Organization name', 'Helix Labs');

    await act(() => page.router.navigate(-1));

    await waitFor(() => expect(currentStep(page)).toMatch(/^Step 1 of 3/));
    expect(page.router.state.location.pathname).toBe('/register');
    expect(page.router.state.location.search).toBe('');
    expect(input(page, 'Business email').value).toBe('ada@helix-labs.example');
    expect(document.activeElement).toBe(page.main.getByRole('heading', { level: 2 }));

    await act(() => page.router.navigate(1));
    await waitFor(() => expect(currentStep(page)).toMatch(/^Step 2 of 3/));
    expect(input(page, 'Organization name').value).toBe('Helix Labs');
  });

  it('makes the Back button the history Back, so the browser Back then leaves the form', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    await press(page, 'Back');
    await waitFor(() => expect(currentStep(page)).toMatch(/^Step 1 of 3/));
    expect(page.router.state.historyAction).toBe('POP');
  });

  it('shows the first incomplete step for a step in the URL whose earlier steps are empty', async () => {
    const page = await renderPage('/register?step=3');
    await waitFor(() => expect(page.router.state.location.search).toBe(''));
    expect(currentStep(page)).toMatch(/^Step 1 of 3/);
  });
});

describe('step 3: the agreements', () => {
  it('shows the address the login instructions go to, with a way back to change it', async () => {
    const page = await renderPage('/register');
    await readyToSubmit(page);
    const review = page.main.getByText('Your login instructions will be sent to', { exact: false });
    expect(review.textContent).toContain('ada@helix-labs.example');

    await press(page, 'Change email');

    await waitFor(() => expect(currentStep(page)).toMatch(/^Step 1 of 3/));
    expect(input(page, 'Business email').value).toBe('ada@helix-labs.example');
  });

  it('shows the ledger statements with links to their documents and a "what happens next" list', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    await fillStep2(page);
    await press(page, 'Continue');

    expect(currentStep(page)).toMatch(/^Step 3 of 3\s+Agreements$/);
    const links = page.main.getAllByRole('link', { name: /^Read the / });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/terms-and-conditions',
      '/privacy-policy',
      '/acceptable-use-policy',
    ]);
    for (const link of links) expect(link.getAttribute('target')).toBe('_blank');
    expect(page.main.getByRole('heading', { level: 3, name: 'What happens next' })).toBeDefined();
  });

  it('refuses to create the account until all three agreements are given', async () => {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    await fillStep2(page);
    await press(page, 'Continue');
    await page.user.click(page.main.getByRole('checkbox', { name: 'I agree to the privacy policy.' }));

    await press(page, 'Create Account');

    expectFieldError(page, 'I agree to the terms of service.', registrationMessages.termsAgreed);
    expect(page.main.queryByText(registrationMessages.privacyAgreed)).toBeNull();
    expectFieldError(
      page,
      'I agree to the non-harmful use policy: the platform is never used to create or enhance pathogens.',
      registrationMessages.nonHarmAgreed,
    );
    expect(document.activeElement).toBe(page.main.getByRole('checkbox', { name: /terms of service/ }));
    expect(api.fetch).not.toHaveBeenCalled();
  });
});

describe('progress across a reload', () => {
  it('saves the typed values and the step, never the agreements, and restores them', async () => {
    const page = await renderPage('/register');
    await fillStep1(page);
    await press(page, 'Continue');
    await fillStep2(page);
    await press(page, 'Continue');
    await agreeToAll(page);

    const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    expect(saved).toMatchObject({
      step: 3,
      values: { responsibleEmail: 'ada@helix-labs.example', organizationType: 'defense' },
    });
    expect(JSON.stringify(saved)).not.toMatch(/Agreed|website/);

    cleanup();
    const again = await renderPage('/register');
    await waitFor(() => expect(currentStep(again)).toMatch(/^Step 3 of 3/));
    expect(input(again, 'Full name').value).toBe(' Ada Lovelace ');
    expect(input(again, 'Website').value).toBe('helix-labs.example');
    expect(again.main.getByLabelText<HTMLSelectElement>('Organization type').value).toBe('defense');
    for (const checkbox of again.main.getAllByRole('checkbox')) {
      expect((checkbox as HTMLInputElement).checked).toBe(false);
    }
  });

  it('resumes at the first step the saved values do not complete', async () => {
    localStorage.setItem(
      storageKey,
      JSON.stringify({ step: 3, values: { responsibleName: 'Ada Lovelace' }, savedAt: Date.now() }),
    );
    const page = await renderPage('/register');
    await waitFor(() => expect(input(page, 'Full name').value).toBe('Ada Lovelace'));
    expect(currentStep(page)).toMatch(/^Step 1 of 3/);
    // Restoring is not an error: nothing is marked invalid and focus stays where it was.
    expect(input(page, 'Job title').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(document.body);
  });

  it('ignores saved progress that is older than a week or not what it should be', async () => {
    for (const stored of [
      JSON.stringify({ step: 2, values: { responsibleName: 'Old' }, savedAt: Date.now() - 8 * 86_400_000 }),
      '{not json',
      JSON.stringify({ step: 2, values: { responsibleName: 42 }, savedAt: Date.now() }),
    ]) {
      localStorage.setItem(storageKey, stored);
      const page = await renderPage('/register');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(input(page, 'Full name').value).toBe('');
      expect(currentStep(page)).toMatch(/^Step 1 of 3/);
      cleanup();
    }
  });
});

describe('creating the account', () => {
  it('posts the request, clears the saved progress, toasts success and shows /check-your-email', async () => {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');
    await readyToSubmit(page);
    expect(localStorage.getItem(storageKey)).not.toBeNull();

    await press(page, 'Create Account');

    const heading = await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(page.router.state.location.pathname).toBe('/check-your-email');
    expect(document.activeElement).toBe(heading);
    expect(api.posted('/api/registrations')).toEqual([expectedBody]);
    expect(localStorage.getItem(storageKey)).toBeNull();
    const toast = screen.getByText('Registration Successful!').closest('.toast');
    expect(toast?.textContent).toContain(
      'Your account has been created. Please check your email for login instructions.',
    );
    expect(toast?.closest('[aria-live="polite"]')).not.toBeNull();
  });

  it('says it is busy while the request is in flight: nothing can be changed or sent twice', async () => {
    let answer: (response: Response) => void = () => {};
    const api = stubApi(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const page = await renderPage('/register');
    await readyToSubmit(page);

    await press(page, 'Create Account');

    const busy = page.main.getByRole('button', { name: 'Creating Account...' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(page.main.getByRole('button', { name: 'Back' }).hasAttribute('disabled')).toBe(true);
    expect(busy.closest('form')?.getAttribute('aria-busy')).toBe('true');
    for (const checkbox of page.main.getAllByRole('checkbox'))
      expect(checkbox.hasAttribute('disabled')).toBe(true);
    expect(api.fetch).toHaveBeenCalledTimes(1);

    answer(json(201, { success: true }));
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
  });

  it("puts the API's field errors on their fields and returns to the step of the first one", async () => {
    stubApi(async () =>
      problem([
        { field: 'organizationName', message: 'Organization name is taken' },
        { field: 'responsibleEmail', message: 'This domain cannot receive email' },
      ]),
    );
    const page = await renderPage('/register');
    await readyToSubmit(page);

    await press(page, 'Create Account');

    await waitFor(() => expect(currentStep(page)).toMatch(/^Step 1 of 3/));
    expectFieldError(page, 'Business email', 'This domain cannot receive email');
    expectFieldError(page, 'Organization name', 'Organization name is taken');
    expect(document.activeElement).toBe(input(page, 'Business email'));
    const toast = screen.getByText('Registration Failed').closest('.toast');
    expect(toast?.closest('[role="alert"]')).not.toBeNull();
    expect(page.router.state.location.pathname).toBe('/register');
    expect(localStorage.getItem(storageKey)).not.toBeNull();
  });

  it.each([
    [
      'the server explains',
      async () =>
        problemJson(503, {
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'Registration is busy right now. Please try again in a minute.',
        }),
      'Registration is busy right now. Please try again in a minute.',
    ],
    [
      'the server refuses without a reason',
      async () => new Response('Bad gateway', { status: 502 }),
      'Registration failed',
    ],
    [
      'no answer arrives',
      async () => Promise.reject(new TypeError('Failed to fetch')),
      'Unable to create your account. Please try again.',
    ],
  ])('toasts "Registration Failed" when %s, keeping the form as it was', async (_, answer, description) => {
    stubApi(answer);
    const page = await renderPage('/register');
    await readyToSubmit(page);

    await press(page, 'Create Account');

    const title = await screen.findByText('Registration Failed');
    expect(title.closest('.toast')?.textContent).toContain(description);
    expect(currentStep(page)).toMatch(/^Step 3 of 3/);
    expect(page.main.getByRole('button', { name: 'Create Account' }).hasAttribute('disabled')).toBe(false);
    expect(within(page.mainElement).getByRole('checkbox', { name: /terms of service/ })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('sends the honeypot as it is, for the API to recognise a bot', async () => {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');
    const honeypot = page.mainElement.querySelector<HTMLInputElement>('input[name="website"]');
    expect(honeypot?.tabIndex).toBe(-1);
    expect(honeypot?.getAttribute('autocomplete')).toBe('off');
    expect(honeypot?.closest('[aria-hidden="true"]')).not.toBeNull();
    await readyToSubmit(page);
    if (!honeypot) throw new Error('no honeypot');
    await page.user.click(honeypot);
    await page.user.paste('https://spam.example');

    await press(page, 'Create Account');

    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    expect(api.posted('/api/registrations')).toEqual([{ ...expectedBody, website: 'https://spam.example' }]);
  });
});

describe('/check-your-email after the wizard (ADR 0086)', () => {
  async function registered() {
    const api = stubApi(async () => json(201, { success: true }));
    const page = await renderPage('/register');
    await readyToSubmit(page);
    await press(page, 'Create Account');
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });
    return { api, page };
  }

  it('shows the address it sent to, and links the web inboxes instead of a bare mailto:', async () => {
    const { page } = await registered();
    expect(page.main.getByText('ada@helix-labs.example', { selector: 'strong' })).toBeDefined();
    const outlook = page.main.getByRole('link', { name: /Open Outlook/ });
    expect(outlook.getAttribute('href')).toBe('https://outlook.office.com/mail/');
    expect(page.main.getByRole('link', { name: /Open Gmail/ }).getAttribute('href')).toContain(
      'mail.google.com',
    );
    expect(document.querySelector('a[href^="mailto:"]')).toBeNull();
    expect(page.main.getByRole('link', { name: 'Register with the right one' }).getAttribute('href')).toBe(
      '/register',
    );
  });

  it('"Resend email" sends the same registration again, says where, and stops after three', async () => {
    const { api, page } = await registered();
    for (let i = 1; i <= 3; i++) {
      await press(page, 'Resend email');
      await waitFor(() => expect(api.posted('/api/registrations')).toHaveLength(1 + i));
    }
    expect(api.posted('/api/registrations')).toEqual(Array(4).fill(expectedBody));
    await waitFor(() =>
      expect(page.main.getByRole('status').textContent).toContain('We have sent it again three times'),
    );
    expect(page.main.queryByRole('button', { name: 'Resend email' })).toBeNull();
  });

  it('says so when the resend fails, and lets the person try again', async () => {
    let calls = 0;
    stubApi(async () => (++calls === 2 ? json(503, { title: 'Unavailable' }) : json(201, { success: true })));
    const page = await renderPage('/register');
    await readyToSubmit(page);
    await press(page, 'Create Account');
    await screen.findByRole('heading', { level: 1, name: 'Check your email' });

    await press(page, 'Resend email');

    expect((await page.main.findByRole('alert')).textContent).toBe(
      'The email could not be sent again. Please try again in a moment.',
    );
    await press(page, 'Resend email');
    await waitFor(() =>
      expect(page.main.getByRole('status').textContent).toBe(
        'Sent again to ada@helix-labs.example. It can take a few minutes to arrive.',
      ),
    );
  });

  it('without the wizard (a bookmark) shows no address and no Resend', async () => {
    const page = await renderPage('/check-your-email');
    expect(page.main.getByText(/sent your login instructions to your business email address/)).toBeDefined();
    expect(page.main.queryByRole('button', { name: 'Resend email' })).toBeNull();
  });
});
