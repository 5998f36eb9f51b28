// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { emailMessages } from '#contracts/common.ts';
import { contactMessages } from '#contracts/contact.ts';
import { investorInquiryMessages } from '#contracts/investor-inquiry.ts';
import { renderPage } from '#tests/web/render-route.tsx';
import { json, problem, problemJson, stubApi } from '#tests/web/stub-api.ts';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A field's label, with or without its "(optional)" note. */
const labelled = (label: string) => new RegExp(`^${label}( \\(optional\\))?$`);

type Main = Awaited<ReturnType<typeof renderPage>>['main'];

/** The field's error is the text its control names in aria-describedby, and the control is invalid. */
function expectFieldError(main: Main, label: string, message: string) {
  const control = main.getByLabelText(labelled(label));
  expect(control.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (control.getAttribute('aria-describedby') ?? '').split(' ');
  const error = main.getByText(message);
  expect(describedBy).toContain(error.id);
}

describe.each([
  {
    path: '/investors',
    api: '/api/investor-inquiries',
    submit: 'Send inquiry',
    emailLabel: 'Business email',
    success: 'Thank you. Our investor relations team will be in touch shortly.',
    failure: 'Your inquiry could not be sent. Please try again.',
    emptyErrors: [
      ['Name', investorInquiryMessages.nameRequired],
      ['Business email', businessEmailMessages.required],
    ],
  },
  {
    path: '/contact',
    api: '/api/contact',
    submit: 'Send message',
    emailLabel: 'Business email',
    success: 'Thank you for your message. We will get back to you within one business day.',
    failure: 'Your message could not be sent. Please try again.',
    emptyErrors: [
      ['Name', contactMessages.nameRequired],
      ['Business email', businessEmailMessages.required],
      ['Organization', contactMessages.organization],
      ['Message', contactMessages.message],
    ],
  },
])('the $path form', ({ path, api, submit, emailLabel, success, failure, emptyErrors }) => {
  async function fill(main: Main, user: Awaited<ReturnType<typeof renderPage>>['user'], email: string) {
    await user.type(main.getByLabelText('Name'), '  Grace Hopper ');
    await user.type(main.getByLabelText(emailLabel), email);
    await user.type(main.getByLabelText(labelled('Organization')), 'Hopper Labs');
    await user.type(main.getByLabelText(labelled('Message')), 'We would like to talk about the vision.');
  }

  it('shows the exact message by every empty required field, focuses the first, and calls no API', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage(path);

    await user.click(main.getByRole('button', { name: submit }));

    for (const [label, message] of emptyErrors) expectFieldError(main, label as string, message as string);
    expect(document.activeElement).toBe(main.getByLabelText('Name'));
    expect(api$.posted(api)).toEqual([]);
  });

  it('refuses a personal address with the business-email message and calls no API', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage(path);

    await fill(main, user, 'grace@gmail.com');
    await user.click(main.getByRole('button', { name: submit }));

    expectFieldError(main, emailLabel, businessEmailMessages.personal);
    expect(api$.posted(api)).toEqual([]);
  });

  it('refuses a one-letter name with the contract message', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage(path);

    await fill(main, user, 'grace@hopper-labs.example');
    await user.clear(main.getByLabelText('Name'));
    await user.type(main.getByLabelText('Name'), 'G');
    await user.click(main.getByRole('button', { name: submit }));

    expectFieldError(main, 'Name', 'Name must have at least 2 characters');
    expect(api$.posted(api)).toEqual([]);
  });

  it('posts the trimmed fields, confirms with a toast and clears the form', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage(path);

    await fill(main, user, ' grace@hopper-labs.example ');
    await user.click(main.getByRole('button', { name: submit }));

    expect(await screen.findByText(success)).toBeDefined();
    expect(api$.posted(api)).toEqual([
      {
        name: 'Grace Hopper',
        email: 'grace@hopper-labs.example',
        organization: 'Hopper Labs',
        message: 'We would like to talk about the vision.',
      },
    ]);
    expect(main.getByLabelText<HTMLInputElement>('Name').value).toBe('');
  });

  it("shows the API's field errors by their fields and keeps what was typed", async () => {
    stubApi(async () => problem([{ field: 'email', message: 'This domain cannot receive email' }]));
    const { main, user } = await renderPage(path);

    await fill(main, user, 'grace@hopper-labs.example');
    await user.click(main.getByRole('button', { name: submit }));

    await screen.findByText('This domain cannot receive email');
    expectFieldError(main, emailLabel, 'This domain cannot receive email');
    expect(main.getByLabelText<HTMLInputElement>('Name').value).toBe('  Grace Hopper ');
    expect(screen.queryByText(success)).toBeNull();
  });

  it('asks to try again when the API fails without naming a field', async () => {
    stubApi(async () => problemJson(500, { type: 'about:blank', title: 'Error', status: 500 }));
    const { main, user } = await renderPage(path);

    await fill(main, user, 'grace@hopper-labs.example');
    await user.click(main.getByRole('button', { name: submit }));

    expect(await screen.findByText(failure)).toBeDefined();
    expect(main.getByLabelText<HTMLInputElement>(labelled('Organization')).value).toBe('Hopper Labs');
  });
});

describe('the investor form', () => {
  it('sends an inquiry with only a name and an email (organization and message are optional)', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage('/investors');

    await user.type(main.getByLabelText('Name'), 'Grace Hopper');
    await user.type(main.getByLabelText('Business email'), 'grace@hopper-capital.example');
    await user.click(main.getByRole('button', { name: 'Send inquiry' }));

    await screen.findByText('Thank you. Our investor relations team will be in touch shortly.');
    expect(api$.posted('/api/investor-inquiries')).toEqual([
      { name: 'Grace Hopper', email: 'grace@hopper-capital.example', organization: '', message: '' },
    ]);
  });
});

describe('the data deletion form', () => {
  it('asks for an email address and then for a valid one, without calling the API', async () => {
    const api$ = stubApi(async () => json(202, { requestId: 'x', dueBy: '2025-07-08' }));
    const { main, user } = await renderPage('/data-deletion');

    await user.click(main.getByRole('button', { name: 'Request deletion' }));
    expectFieldError(main, 'Email address', emailMessages.required);

    await user.type(main.getByLabelText('Email address'), 'no-at-sign');
    await user.click(main.getByRole('button', { name: 'Request deletion' }));
    expectFieldError(main, 'Email address', emailMessages.invalid);
    expect(api$.posted('/api/data-deletion-requests')).toEqual([]);
  });

  it('accepts a personal address, sends only the fields given, and asks to confirm from the inbox', async () => {
    const api$ = stubApi(async () =>
      json(202, {
        requestId: '01JZ8Q4K6M2R5T7V9X1B3D5F7H',
        confirmBy: '2025-06-09T10:00:00.000Z',
        dueBy: '2025-07-09',
      }),
    );
    const { main, user } = await renderPage('/data-deletion');

    await user.type(main.getByLabelText('Email address'), 'ada@gmail.com');
    await user.click(main.getByRole('button', { name: 'Request deletion' }));

    const reference = await main.findByText('01JZ8Q4K6M2R5T7V9X1B3D5F7H');
    const receipt = reference.closest('[role="status"]');
    expect(receipt).not.toBeNull();
    expect(
      within(receipt as HTMLElement).getByRole('heading', { name: 'Check your inbox to confirm' }),
    ).toBeDefined();
    expect(receipt?.textContent).toContain(
      'We have sent a link to the address you gave. Open it within 24 hours and confirm the request: nothing is deleted until you do. Once confirmed, we complete your request within 30 days.',
    );
    expect(api$.posted('/api/data-deletion-requests')).toEqual([{ email: 'ada@gmail.com' }]);
  });

  it('sends the name and details when given', async () => {
    const api$ = stubApi(async () =>
      json(202, { requestId: 'r1', confirmBy: '2025-06-09T10:00:00.000Z', dueBy: '2025-07-09' }),
    );
    const { main, user } = await renderPage('/data-deletion');

    await user.type(main.getByLabelText('Email address'), 'ada@example.org');
    await user.type(main.getByLabelText(labelled('Name')), 'Ada Lovelace');
    await user.type(main.getByLabelText(labelled('Details')), 'I joined the waitlist in May.');
    await user.click(main.getByRole('button', { name: 'Request deletion' }));

    await main.findByText('r1');
    expect(api$.posted('/api/data-deletion-requests')).toEqual([
      { email: 'ada@example.org', name: 'Ada Lovelace', details: 'I joined the waitlist in May.' },
    ]);
  });

  it("shows the API's field error by the email field", async () => {
    stubApi(async () => problem([{ field: 'email', message: 'Please enter a valid email address' }]));
    const { main, user } = await renderPage('/data-deletion');

    await user.type(main.getByLabelText('Email address'), 'ada@example.org');
    await user.click(main.getByRole('button', { name: 'Request deletion' }));

    await main.findByText('Please enter a valid email address');
    expectFieldError(main, 'Email address', 'Please enter a valid email address');
    expect(main.queryByText('Check your inbox to confirm')).toBeNull();
  });
});

describe('the waitlist form on the home page', () => {
  it('asks for an email address on an empty submit, by the field, without calling the API', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage('/');

    await user.click(main.getByRole('button', { name: 'Notify me' }));

    // The form loads its schema on first use, so the message may take a moment.
    await main.findByText('Please enter your email address');
    expectFieldError(main, 'Email address', 'Please enter your email address');
    expect(api$.posted('/api/waitlist')).toEqual([]);
  });

  it('confirms with the success toast and clears the field', async () => {
    const api$ = stubApi(async () => json(201, { success: true }));
    const { main, user } = await renderPage('/');

    await user.type(main.getByLabelText('Email address'), 'ada@example.org');
    await user.click(main.getByRole('button', { name: 'Notify me' }));

    const toast = await screen.findByText('Successfully registered for updates!');
    expect(toast.closest('[aria-live]')).not.toBeNull();
    expect(api$.posted('/api/waitlist')).toEqual([{ email: 'ada@example.org' }]);
    expect(main.getByLabelText<HTMLInputElement>('Email address').value).toBe('');
  });

  it('shows the failure toast when the API fails, keeping the address', async () => {
    stubApi(async () => Promise.reject(new TypeError('Failed to fetch')));
    const { main, user } = await renderPage('/');

    await user.type(main.getByLabelText('Email address'), 'ada@example.org');
    await user.click(main.getByRole('button', { name: 'Notify me' }));

    expect(await screen.findByText('Failed to register. Please try again.')).toBeDefined();
    expect(main.getByLabelText<HTMLInputElement>('Email address').value).toBe('ada@example.org');
  });

  it("keeps the API's field error by the field, not in a toast", async () => {
    stubApi(async () => problem([{ field: 'email', message: 'This address cannot receive email' }]));
    const { main, user } = await renderPage('/');

    await user.type(main.getByLabelText('Email address'), 'ada@example.org');
    await user.click(main.getByRole('button', { name: 'Notify me' }));

    await main.findByText('This address cannot receive email');
    expectFieldError(main, 'Email address', 'This address cannot receive email');
    expect(screen.queryByText('Failed to register. Please try again.')).toBeNull();
  });
});
