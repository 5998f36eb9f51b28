import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { routes } from '#web/app/routes.tsx';

// Pages are tested through the real route table and layout (toasts, cookie banner, nav), so a
// page that is not routed, or that needs a provider the layout lacks, fails here.

/** Renders the app at `path` and waits for the page's h1; queries are scoped to <main>. */
export async function renderPage(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  const main = await screen.findByRole('main');
  await within(main).findByRole('heading', { level: 1 });
  return { router, user, main: within(main), mainElement: main };
}

export function json(status: number, body: unknown, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': contentType } });
}

export function problem(errors: { field: string; message: string }[]): Response {
  return json(
    400,
    { type: 'about:blank', title: 'Bad Request', status: 400, errors },
    'application/problem+json',
  );
}

/** Stubs fetch for the API (and only the API) and records the calls. */
export function stubApi(answer: (url: string, init: RequestInit) => Promise<Response>) {
  const fetch = vi.fn((url: string, init: RequestInit) => answer(String(url), init));
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    /** The JSON bodies posted to `path`. */
    posted(path: string): unknown[] {
      return fetch.mock.calls
        .filter(([url]) => url === path)
        .map(([, init]) => JSON.parse(String(init.body)));
    },
  };
}
