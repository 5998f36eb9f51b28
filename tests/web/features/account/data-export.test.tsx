// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataExport } from '#contracts/data-export.ts';
import { renderScreen } from '#tests/web/features/dashboards/render-screen.tsx';
import { json, problemJson } from '#tests/web/stub-api.ts';
import { Component as UserAccount } from '#web/features/account/screens/user-account.tsx';

// "Download my data" on /user-account (ADR 0076): the API's document, fetched with the token and
// saved as a JSON file through a Blob.

const document_: DataExport = {
  format: 'platform-personal-data-export',
  version: 1,
  generatedAt: '2026-11-27T12:00:00.000Z',
  profile: {
    userId: 'auth0|casey',
    email: 'casey@acme-pharma.example',
    emailVerified: true,
    name: 'Casey',
    role: 'user',
  },
  organization: null,
  registration: null,
  consents: [],
  kyc: { status: 'approved', updatedAt: null, attempts: 1, history: [] },
  submissions: [],
};

function open(answer: () => Response) {
  const calls: { path: string; headers: Headers }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      calls.push({ path, headers: new Headers(init.headers) });
      return path === '/api/me/export' ? answer() : json(200, { records: [] });
    }),
  );
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        const url = `blob:test/${blobs.size}`;
        blobs.set(url, blob);
        return url;
      }),
      revokeObjectURL: vi.fn(),
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ name: this.download, blob });
  });
  renderScreen(UserAccount, { path: '/user-account' });
  return { calls, saved };
}

const section = () => screen.getByRole('region', { name: 'Your Data' });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Download my data', () => {
  it('fetches the document with the token and saves it as a dated JSON file', async () => {
    const { calls, saved } = open(() => json(200, document_));
    fireEvent.click(within(section()).getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const [file] = saved;
    if (!file) throw new Error('nothing saved');
    expect(file.name).toBe('my-data-2026-11-27.json');
    expect(file.blob.type).toBe('application/json');
    expect(JSON.parse(await file.blob.text())).toEqual(document_);
    const call = calls.find((c) => c.path === '/api/me/export');
    expect(call?.headers.get('Authorization')).toMatch(/^Bearer /);
    expect(await screen.findByText('Your data was saved as a JSON file.')).toBeTruthy();
  });

  it('says when the day’s 5 downloads are used', async () => {
    const { saved } = open(() =>
      problemJson(429, {
        type: 'https://platform.example/problems/rate-limited',
        title: 'Too Many Requests',
        status: 429,
      }),
    );
    fireEvent.click(within(section()).getByRole('button', { name: 'Download my data' }));
    expect(
      await screen.findByText('You have downloaded your data 5 times today. Please try again tomorrow.'),
    ).toBeTruthy();
    expect(saved).toEqual([]);
  });
});
