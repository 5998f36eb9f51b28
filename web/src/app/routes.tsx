import { type RouteObject, redirect } from 'react-router';
import { paths, redirects } from '#web/config/paths.ts';
import { accountScreens } from '#web/features/account/index.ts';
import { adminScreens } from '#web/features/admin/index.ts';
import { authScreens } from '#web/features/auth/index.ts';
import { dashboardScreens } from '#web/features/dashboards/index.ts';
import { kycScreens } from '#web/features/kyc/index.ts';
import { organizationScreens } from '#web/features/organization/index.ts';
import type { AppRouteKey } from '#web/lib/journey.ts';
import type { AppRouteHandle } from './app-layout.tsx';
import { RouteErrorBoundary } from './error-boundary.tsx';
import { RootLayout } from './layout.tsx';

// The layout is eager (every page needs it); each page is its own lazy chunk, so a page's code is
// fetched only where it is shown. The pathless child catches page errors inside the layout; the
// root boundary only sees a failing layout. Import specifiers stay literal so Vite can split them.
const pages: Record<string, RouteObject['lazy']> = {
  [paths.home.path]: () => import('#web/pages/home.tsx'),
  [paths.pricing.path]: () => import('#web/pages/pricing.tsx'),
  [paths.careers.path]: () => import('#web/pages/careers.tsx'),
  [paths.investors.path]: () => import('#web/pages/investors.tsx'),
  [paths.contact.path]: () => import('#web/pages/contact.tsx'),
  [paths.privacyPolicy.path]: () => import('#web/pages/privacy-policy.tsx'),
  [paths.termsAndConditions.path]: () => import('#web/pages/terms-and-conditions.tsx'),
  [paths.acceptableUsePolicy.path]: () => import('#web/pages/acceptable-use-policy.tsx'),
  [paths.eula.path]: () => import('#web/pages/eula.tsx'),
  [paths.impressum.path]: () => import('#web/pages/impressum.tsx'),
  [paths.cookiePolicy.path]: () => import('#web/pages/cookie-policy.tsx'),
  [paths.gdprCompliance.path]: () => import('#web/pages/gdpr-compliance.tsx'),
  [paths.dataDeletion.path]: () => import('#web/pages/data-deletion.tsx'),
  [paths.dataDeletionConfirm.path]: () => import('#web/pages/data-deletion-confirm.tsx'),
  [paths.documentation.path]: () => import('#web/pages/documentation.tsx'),
  [paths.tutorials.path]: () => import('#web/pages/tutorials.tsx'),
  [paths.register.path]: () => import('#web/pages/register.tsx'),
  [paths.checkYourEmail.path]: () => import('#web/pages/check-your-email.tsx'),
};

// The signed-in product: one lazy, pathless app shell (identity provider, session, guards) above
// one lazy module per screen (each feature's index lists its screens' loaders, with literal
// specifiers so Vite still splits them). Public pages never load any of it.
const appScreens: Record<AppRouteKey, RouteObject['lazy']> = {
  authCallback: authScreens.authCallback,
  // Never rendered: routeAccess always sends a visitor on (to the login or to the next step).
  login: authScreens.authCallback,
  verificationRequired: authScreens.verificationRequired,
  registrationSuccess: authScreens.registrationSuccess,
  kycStart: kycScreens.start,
  kycPersona: kycScreens.persona,
  kycComplete: kycScreens.status,
  kycCompleteDefense: kycScreens.status,
  dashboard: dashboardScreens.setup,
  commercialDashboard: dashboardScreens.commercial,
  defenseDashboard: dashboardScreens.defense,
  userAccount: accountScreens.userAccount,
  organization: organizationScreens.team,
  adminVerification: adminScreens.verificationReview,
};

const appShell: RouteObject = {
  id: 'app',
  lazy: () => import('#web/app/app-layout.tsx'),
  children: (Object.entries(appScreens) as [AppRouteKey, RouteObject['lazy']][]).map(([key, lazy]) => ({
    path: paths[key].path,
    lazy,
    handle: { appRoute: key } satisfies AppRouteHandle,
  })),
};

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: () => null,
    children: [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          ...Object.entries(pages).map(([path, lazy]) => ({ path, lazy })),
          ...Object.entries(redirects).map(([from, to]) => ({ path: from, loader: () => redirect(to) })),
          appShell,
          { path: '*', lazy: () => import('#web/pages/not-found.tsx') },
        ],
      },
    ],
  },
];
