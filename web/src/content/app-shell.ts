// Copy of the signed-in app's shell: loading, sign-in and session messages, the 403 page. Apart
// from site.ts so it loads with the lazy app shell, not with every public page.
import { sessionMessages } from './session.ts';

export const appShell = {
  loading: 'Loading...',
  redirectingToLogin: 'Redirecting to log in...',
  loggingOut: 'Logging out...',
  completing: 'Completing authentication...',
  configFailed: {
    title: 'The app could not start',
    body: 'Its configuration did not load. Please reload the page in a moment.',
    retry: 'Reload',
  },
  meFailed: {
    title: 'Your account could not be loaded',
    body: 'Please try again in a moment.',
    retry: 'Try again',
  },
  auth: {
    errorTitle: 'Authentication Error',
    loginFailed: 'Login failed',
    tokenFailed: 'Get access token failed',
    welcomeAdmin: 'Welcome Admin',
    sessionExpired: sessionMessages.expired,
    /** `GET /api/me` answered 401 organization-membership-ended: an admin removed the member (ADR 0084). */
    membershipEnded: "You were removed from your organization's workspace.",
  },
  forbidden: {
    title: 'Access denied',
    body: 'This page is only for administrators. If you think you should have access, contact your account manager.',
    home: 'Go to the home page',
  },
} as const;
