// Where a user goes next, decided in one place. `nextStep` is the journey; `routeAccess` is what
// every guarded route of the app shell asks before it renders. Both are pure: tests/web/lib/journey.test.ts
// runs every combination of their inputs.
import type { KycStatus, Role } from '#contracts/kyc.ts';
import type { MeResponse } from '#contracts/me.ts';
import type { OrganizationRole, OrganizationType } from '#contracts/organization.ts';
import type { PathKey } from '#web/config/paths.ts';

export interface JourneyState {
  authenticated: boolean;
  emailVerified: boolean;
  consentRecorded: boolean;
  kycStatus: KycStatus;
  /** null for accounts created outside registration (seeded, admins): treated as commercial. */
  organizationType: OrganizationType | null;
  /** The caller's role in their organization (ADR 0084): `org_admin` manages the team. */
  organizationRole: OrganizationRole | null;
  role: Role;
}

/** A visitor without a session. */
export const signedOut: JourneyState = {
  authenticated: false,
  emailVerified: false,
  consentRecorded: false,
  kycStatus: 'not_started',
  organizationType: null,
  organizationRole: null,
  role: 'user',
};

/** The state of a signed-in user, from the server's `GET /api/me` (never from the token). */
export function journeyState(me: MeResponse): JourneyState {
  // `me` carries every other field of the state under the same name (and more, which nothing reads).
  return { ...me, authenticated: true };
}

/** The two dashboards: commercial and academic organizations, or defense and government ones. */
export type Segment = 'commercial' | 'defense';

export function segmentOf(organizationType: OrganizationType | null): Segment {
  return organizationType === 'defense' || organizationType === 'government' ? 'defense' : 'commercial';
}

/** The status screen of a segment. */
export function statusScreen(segment: Segment): 'kycComplete' | 'kycCompleteDefense' {
  return segment === 'defense' ? 'kycCompleteDefense' : 'kycComplete';
}

/**
 * Where an approved user of a segment works: their segment's dashboard, whichever way they come
 * (the approval, a sign-in, the nav's Dashboard, the approval email's link to `/dashboard`). ADR 0085.
 */
export function approvedHome(segment: Segment): 'commercialDashboard' | 'defenseDashboard' {
  return segment === 'defense' ? 'defenseDashboard' : 'commercialDashboard';
}

export type JourneyStep =
  | 'register'
  | 'adminVerification'
  | 'verificationRequired'
  | 'kycStart'
  | 'kycPersona'
  | 'kycComplete'
  | 'kycCompleteDefense'
  | 'commercialDashboard'
  | 'defenseDashboard';

/** The next screen of the onboarding journey for a user in this state. */
export function nextStep(state: JourneyState): JourneyStep {
  if (!state.authenticated) return 'register';
  if (state.role === 'admin') return 'adminVerification';
  if (!state.emailVerified) return 'verificationRequired';
  const segment = segmentOf(state.organizationType);
  switch (state.kycStatus) {
    case 'approved':
      return approvedHome(segment);
    case 'pending':
    case 'rejected':
      return statusScreen(segment);
    case 'not_started':
      return state.consentRecorded ? 'kycPersona' : 'kycStart';
  }
}

/** The app shell's routes (paths.ts `kind: 'app'`). */
export type AppRouteKey =
  | 'authCallback'
  | 'login'
  | 'verificationRequired'
  | 'registrationSuccess'
  | 'kycStart'
  | 'kycPersona'
  | 'kycComplete'
  | 'kycCompleteDefense'
  | 'dashboard'
  | 'commercialDashboard'
  | 'defenseDashboard'
  | 'userAccount'
  | 'organization'
  | 'adminVerification';

export type Access =
  | { kind: 'render' }
  | { kind: 'redirect'; to: PathKey }
  /** Signed out on a screen that needs an account: the identity provider's login, then back here. */
  | { kind: 'login' }
  /** Signed in, but not allowed (a non-admin on an admin screen): the 403 page. */
  | { kind: 'forbidden' };

const render: Access = { kind: 'render' };
const redirect = (to: PathKey): Access => ({ kind: 'redirect', to });

/** Screens a signed-out visitor is sent to register from (they only make sense inside the journey). */
const registerWhenSignedOut: ReadonlySet<AppRouteKey> = new Set([
  'kycStart',
  'kycPersona',
  'kycComplete',
  'kycCompleteDefense',
]);

/** Whether `route` renders for this state, and where to go instead. */
export function routeAccess(route: AppRouteKey, state: JourneyState): Access {
  if (route === 'authCallback') return state.authenticated ? render : redirect('home');
  // The emailed "Sign in" link: a login for a visitor, the next step for a signed-in user.
  if (route === 'login') return state.authenticated ? redirect(nextStep(state)) : { kind: 'login' };
  if (!state.authenticated)
    return registerWhenSignedOut.has(route) ? redirect('register') : { kind: 'login' };

  switch (route) {
    case 'adminVerification':
      return state.role === 'admin' ? render : { kind: 'forbidden' };
    case 'organization':
      // The team page (ADR 0084): an organization's admin, once verified and approved themselves.
      if (state.organizationRole !== 'org_admin') return { kind: 'forbidden' };
      return state.emailVerified && state.kycStatus === 'approved' ? render : redirect(nextStep(state));
    case 'registrationSuccess':
    case 'userAccount':
      return render;
    case 'verificationRequired':
      return state.emailVerified ? redirect(nextStep(state)) : render;
    default:
      break;
  }

  if (!state.emailVerified) return redirect('verificationRequired');
  const segment = segmentOf(state.organizationType);
  switch (route) {
    case 'dashboard':
      // An administrator's Dashboard is the review queue; an approved user's, their segment's
      // dashboard (ADR 0085). The page itself is where onboarding stands, for everyone else.
      if (state.role === 'admin') return redirect('adminVerification');
      return state.kycStatus === 'approved' ? redirect(approvedHome(segment)) : render;
    case 'kycStart':
      return state.kycStatus === 'not_started' ? render : redirect(nextStep(state));
    case 'kycPersona':
      if (state.kycStatus !== 'not_started') return redirect(nextStep(state));
      return state.consentRecorded ? render : redirect('kycStart');
    case 'kycComplete':
    case 'kycCompleteDefense':
      // Any status: right after the widget the webhook may not have arrived (still not_started).
      return route === statusScreen(segment) ? render : redirect(statusScreen(segment));
    case 'commercialDashboard':
      return state.kycStatus === 'approved' && segment === 'commercial' ? render : redirect(nextStep(state));
    case 'defenseDashboard':
      return state.kycStatus === 'approved' && segment === 'defense' ? render : redirect(nextStep(state));
  }
}
