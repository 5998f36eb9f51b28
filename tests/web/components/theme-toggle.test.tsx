// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThemeToggle } from '#web/components/theme-toggle.tsx';
import { headScript } from '../../../web/inline-scripts.ts';

function prefersDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
  }));
}

function runThemeScript() {
  new Function(headScript)();
  return document.documentElement.dataset.theme;
}

beforeEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('theme head script', () => {
  it('uses the stored choice over the system preference', () => {
    prefersDark(true);
    localStorage.setItem('theme', 'light');
    expect(runThemeScript()).toBe('light');
  });

  it('falls back to the system preference when nothing valid is stored', () => {
    prefersDark(true);
    localStorage.setItem('theme', 'purple');
    expect(runThemeScript()).toBe('dark');
    prefersDark(false);
    localStorage.clear();
    expect(runThemeScript()).toBe('light');
  });
});

describe('theme toggle', () => {
  it('flips data-theme on <html>, says what it will do next, and remembers the choice', async () => {
    const user = userEvent.setup();
    document.documentElement.dataset.theme = 'light';
    render(<ThemeToggle />);

    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));

    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(await screen.findByRole('button', { name: 'Switch to light theme' }));

    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
    expect(await screen.findByRole('button', { name: 'Switch to dark theme' })).toBeDefined();
  });

  it('follows the theme the head script chose before React started', async () => {
    prefersDark(true);
    runThemeScript();
    render(<ThemeToggle />);
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeDefined();
  });
});
