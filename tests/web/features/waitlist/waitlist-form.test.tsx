// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { ToastProvider } from '#web/components/toast.tsx';
import { WaitlistForm } from '#web/features/waitlist/components/waitlist-form.tsx';

function stubFetch(answer: () => Promise<Response>) {
  const fetch = vi.fn(answer);
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function setup() {
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <WaitlistForm />
    </ToastProvider>,
  );
  return {
    user,
    email: screen.getByLabelText<HTMLInputElement>('Email address'),
    submit: screen.getByRole('button', { name: 'Notify me' }),
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('waitlist form', () => {
  it('asks for an email address on an empty submit without calling the API', async () => {
    const fetch = stubFetch(async () => json(201, { success: true }));
    const { user, email, submit } = setup();

    await user.click(submit);

    // The schema loads with the first submit (it is kept out of the page's initial JS).
    const message = await screen.findByText('Please enter your email address');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(message.id);
    expect(document.activeElement).toBe(email);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('rejects a malformed address with the contract message', async () => {
    const fetch = stubFetch(async () => json(201, { success: true }));
    const { user, email, submit } = setup();

    await user.type(email, 'not-an-email');
    await user.click(submit);

    expect(screen.getByText('Please enter a valid email address').id).toBe(
      email.getAttribute('aria-describedby'),
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('posts the email, disables the button meanwhile, then confirms and clears the field', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user, email } = setup();

    await user.type(email, '  ada@example.org ');
    await user.click(screen.getByRole('button', { name: 'Notify me' }));

    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Registering...' }).disabled).toBe(true);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/waitlist');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'ada@example.org' });

    answer(json(201, { success: true }));

    const success = await screen.findByText('Successfully registered for updates!');
    expect(success.closest('[role="status"]')).not.toBeNull();
    expect(email.value).toBe('');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Notify me' }).disabled).toBe(false);
  });

  it("shows the API's field error next to the field on a 400 problem", async () => {
    stubFetch(async () =>
      problemJson(400, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        errors: [{ field: 'email', message: 'This address cannot receive email' }],
      }),
    );
    const { user, email, submit } = setup();

    await user.type(email, 'ada@example.org');
    await user.click(submit);

    const message = await screen.findByText('This address cannot receive email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(message.id);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it.each([
    ['a 500 problem', () => Promise.resolve(json(500, { type: 'about:blank', title: 'Error', status: 500 }))],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    [
      'a 400 without field errors',
      () => Promise.resolve(json(400, { type: 'x', title: 'Bad', status: 400 })),
    ],
  ])('asks to try again after %s', async (_, answer) => {
    stubFetch(answer);
    const { user, email, submit } = setup();

    await user.type(email, 'ada@example.org');
    await user.click(submit);

    const failure = await screen.findByText('Failed to register. Please try again.');
    expect(failure.closest('[role="alert"]')).not.toBeNull();
    expect(email.value).toBe('ada@example.org');
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
