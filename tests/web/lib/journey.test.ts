import { describe, expect, it } from 'vitest';
import { kycStatuses, roles } from '#contracts/kyc.ts';
import { organizationRoles, organizationTypes } from '#contracts/organization.ts';
import { signInPath } from '#lambdas/domain/emails/registration-emails.ts';
import { paths } from '#web/config/paths.ts';
import {
  type AppRouteKey,
  type JourneyState,
  nextStep,
  routeAccess,
  segmentOf,
  signedOut,
} from '#web/lib/journey.ts';

// Every combination of the journey's inputs: 2 x 2 x 2 x 4 x 5 x 3 x 2 = 960 states.
const states: JourneyState[] = [];
for (const authenticated of [false, true])
  for (const emailVerified of [false, true])
    for (const consentRecorded of [false, true])
      for (const kycStatus of kycStatuses)
        for (const organizationType of [...organizationTypes, null])
          for (const organizationRole of [...organizationRoles, null])
            for (const role of roles)
              states.push({
                authenticated,
                emailVerified,
                consentRecorded,
                kycStatus,
                organizationType,
                organizationRole,
                role,
              });

const appRoutes = Object.entries(paths)
  .filter(([, entry]) => entry.kind === 'app')
  .map(([key]) => key as AppRouteKey);

const describeState = (s: JourneyState) =>
  `${s.authenticated ? 'signed in' : 'signed out'}, ${s.emailVerified ? 'verified' : 'unverified'}, ` +
  `${s.consentRecorded ? 'consented' : 'no consent'}, ${s.kycStatus}, ${s.organizationType}, ${s.organizationRole}, ${s.role}`;

describe('nextStep', () => {
  it('covers all 960 combinations', () => {
    expect(states).toHaveLength(960);
  });

  it.each(states.map((s) => [describeState(s), s] as const))(
    'sends a user who is %s to the right step',
    (_, s) => {
      const step = nextStep(s);
      const defense = s.organizationType === 'defense' || s.organizationType === 'government';
      if (!s.authenticated) return expect(step).toBe('register');
      if (s.role === 'admin') return expect(step).toBe('adminVerification');
      if (!s.emailVerified) return expect(step).toBe('verificationRequired');
      if (s.kycStatus === 'approved')
        return expect(step).toBe(defense ? 'defenseDashboard' : 'commercialDashboard');
      if (s.kycStatus === 'pending' || s.kycStatus === 'rejected')
        return expect(step).toBe(defense ? 'kycCompleteDefense' : 'kycComplete');
      expect(step).toBe(s.consentRecorded ? 'kycPersona' : 'kycStart');
    },
  );

  it('puts academic organizations with commercial ones, and government with defense', () => {
    expect(segmentOf('academic')).toBe('commercial');
    expect(segmentOf('commercial')).toBe('commercial');
    expect(segmentOf(null)).toBe('commercial');
    expect(segmentOf('government')).toBe('defense');
    expect(segmentOf('defense')).toBe('defense');
  });
});

describe('routeAccess', () => {
  it('serves the "Sign in" link of the login-instructions email as the login route', () => {
    expect(paths.login.path).toBe(signInPath);
    expect(routeAccess('login', signedOut)).toEqual({ kind: 'login' });
  });

  it.each(states.filter((s) => s.authenticated).map((s) => [describeState(s), s] as const))(
    'lets a user who is %s open their next step',
    (_, s) => {
      expect(routeAccess(nextStep(s) as AppRouteKey, s)).toEqual({ kind: 'render' });
    },
  );

  it('never loops: from every route, following redirects ends on a screen, the login, the 403 page or a public page', () => {
    for (const s of states) {
      for (const start of appRoutes) {
        let route: string = start;
        const seen = new Set<string>();
        for (;;) {
          expect(seen.has(route), `${describeState(s)}: loop through ${[...seen].join(' -> ')}`).toBe(false);
          seen.add(route);
          if (!appRoutes.includes(route as AppRouteKey)) break; // a public page (home, register)
          const access = routeAccess(route as AppRouteKey, s);
          if (access.kind !== 'redirect') break;
          route = access.to;
        }
      }
    }
  });

  it('sends signed-out visitors of the verification and status screens to /register, others to the login', () => {
    for (const route of appRoutes) {
      const access = routeAccess(route, signedOut);
      if (route === 'authCallback') expect(access).toEqual({ kind: 'redirect', to: 'home' });
      else if (['kycStart', 'kycPersona', 'kycComplete', 'kycCompleteDefense'].includes(route))
        expect(access).toEqual({ kind: 'redirect', to: 'register' });
      else expect(access).toEqual({ kind: 'login' });
    }
  });

  it('opens neither dashboard for a user who is not approved', () => {
    for (const s of states.filter((s) => s.authenticated && s.kycStatus !== 'approved')) {
      expect(routeAccess('commercialDashboard', s).kind, describeState(s)).toBe('redirect');
      expect(routeAccess('defenseDashboard', s).kind, describeState(s)).toBe('redirect');
    }
  });

  it('opens only the dashboard of the approved user own segment', () => {
    for (const s of states.filter((s) => s.authenticated && s.emailVerified && s.kycStatus === 'approved')) {
      const defense = segmentOf(s.organizationType) === 'defense';
      expect(routeAccess('defenseDashboard', s).kind, describeState(s)).toBe(defense ? 'render' : 'redirect');
      expect(routeAccess('commercialDashboard', s).kind, describeState(s)).toBe(
        defense ? 'redirect' : 'render',
      );
    }
  });

  it('shows the 403 page, not the review queue, to every signed-in non-admin', () => {
    for (const s of states.filter((s) => s.authenticated)) {
      expect(routeAccess('adminVerification', s)).toEqual(
        s.role === 'admin' ? { kind: 'render' } : { kind: 'forbidden' },
      );
    }
  });

  it("sends a verified admin's Dashboard to the review queue, an approved user's to their segment's dashboard, and shows anyone else where onboarding stands", () => {
    for (const s of states.filter((s) => s.authenticated && s.emailVerified)) {
      const defense = s.organizationType === 'defense' || s.organizationType === 'government';
      expect(routeAccess('dashboard', s), describeState(s)).toEqual(
        s.role === 'admin'
          ? { kind: 'redirect', to: 'adminVerification' }
          : s.kycStatus === 'approved'
            ? { kind: 'redirect', to: defense ? 'defenseDashboard' : 'commercialDashboard' }
            : { kind: 'render' },
      );
    }
  });

  it('sends an unverified user to Verify Your Email from every onboarding screen', () => {
    for (const s of states.filter((s) => s.authenticated && !s.emailVerified)) {
      for (const route of [
        'kycStart',
        'kycPersona',
        'kycComplete',
        'dashboard',
        'defenseDashboard',
      ] as const) {
        expect(routeAccess(route, s), `${route} ${describeState(s)}`).toEqual({
          kind: 'redirect',
          to: 'verificationRequired',
        });
      }
    }
  });

  it('opens Persona only after consent and before a decision', () => {
    for (const s of states.filter((s) => s.authenticated && s.emailVerified)) {
      const access = routeAccess('kycPersona', s);
      if (s.kycStatus === 'not_started' && s.consentRecorded) expect(access.kind).toBe('render');
      else expect(access.kind).toBe('redirect');
    }
  });

  it("opens the team page only to an organization's admin, verified and approved; others get the 403 page or their next step", () => {
    for (const s of states.filter((s) => s.authenticated)) {
      const access = routeAccess('organization', s);
      if (s.organizationRole !== 'org_admin') expect(access, describeState(s)).toEqual({ kind: 'forbidden' });
      else if (s.emailVerified && s.kycStatus === 'approved')
        expect(access, describeState(s)).toEqual({ kind: 'render' });
      else expect(access, describeState(s)).toEqual({ kind: 'redirect', to: nextStep(s) });
    }
    expect(routeAccess('organization', signedOut)).toEqual({ kind: 'login' });
  });
});
