// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '#tests/web/features/dashboards/render-screen.tsx';
import { Component as RegistrationSuccess } from '#web/features/auth/screens/registration-success.tsx';

// /registration-success: where the first sign-in after the emailed password link lands (ADR 0086).

afterEach(cleanup);

describe('/registration-success', () => {
  it("is titled 'Registration Successful' and leads to the dashboard and home", () => {
    renderScreen(RegistrationSuccess, {
      path: '/registration-success',
      me: { kycStatus: 'not_started', consentRecorded: false },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Registration Successful' })).toBeTruthy();
    expect(document.title).toContain('Registration Successful');
    expect(screen.getByText(/your password is set/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });
});
