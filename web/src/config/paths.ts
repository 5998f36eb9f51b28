// The route registry: every link goes through getHref, every route object uses path, and the
// prerender, sitemap, budgets, the CloudFront path-mapping function and the local static server
// read the routes from here. A path that is not listed answers 404.
//
// Public pages exist in each language (ADR 0089): English at the paths below, German under `/de`.
// `paths` holds the running build's language (`path` and `getHref()` are `/de/pricing` in the
// German build); `web/src/config/site-paths.ts` lists every language's pages for the edge, the
// prerender's sitemap and the bench. Signed-in routes have one path in both languages.
import { buildLocale, type Locale, localizedPath } from './locale.ts';

interface PublicPath {
  /** The page's path in this build's language. */
  path: string;
  /** The page's path without a language prefix (its English path). */
  basePath: string;
  getHref: () => string;
  /** The lazy module `web/src/pages/<page>.tsx`. */
  page: string;
  /** Prerendered to `<path>/index.html`. */
  kind: 'public';
  /** Listed in the sitemap and open to search engines (journey pages such as /check-your-email are not). */
  indexed: boolean;
}

/** Rendered on the client from the fallback page, never prerendered or indexed. */
interface AppPath<Params extends unknown[] = []> {
  path: string;
  getHref: (...params: Params) => string;
  kind: 'app';
}

const publicPath = (basePath: string, page: string, indexed = true): PublicPath => {
  const path = localizedPath(basePath, buildLocale);
  return { path, basePath, getHref: () => path, page, kind: 'public', indexed };
};

const appPath = (path: string): AppPath => ({ path, getHref: () => path, kind: 'app' });

/** The admin queue's filters (`GET /api/admin/verifications?status=`). */
export type VerificationFilter = 'pending' | 'approved' | 'rejected' | 'all';

export const paths = {
  home: publicPath('/', 'home'),
  pricing: publicPath('/pricing', 'pricing'),
  careers: publicPath('/careers', 'careers'),
  investors: publicPath('/investors', 'investors'),
  contact: publicPath('/contact', 'contact'),
  privacyPolicy: publicPath('/privacy-policy', 'privacy-policy'),
  termsAndConditions: publicPath('/terms-and-conditions', 'terms-and-conditions'),
  acceptableUsePolicy: publicPath('/acceptable-use-policy', 'acceptable-use-policy'),
  eula: publicPath('/eula', 'eula'),
  impressum: publicPath('/impressum', 'impressum'),
  cookiePolicy: publicPath('/cookie-policy', 'cookie-policy'),
  gdprCompliance: publicPath('/gdpr-compliance', 'gdpr-compliance'),
  dataDeletion: publicPath('/data-deletion', 'data-deletion'),
  /** Where a data-deletion request's emailed link leads (the token in the fragment). */
  dataDeletionConfirm: publicPath('/data-deletion/confirm', 'data-deletion-confirm', false),
  documentation: publicPath('/documentation', 'documentation'),
  tutorials: publicPath('/tutorials', 'tutorials'),
  // The journey's public steps: prerendered, without sign-in code.
  register: publicPath('/register', 'register'),
  checkYourEmail: publicPath('/check-your-email', 'check-your-email', false),
  // The signed-in journey (the app shell: web/src/app/app-layout.tsx).
  authCallback: appPath('/auth/callback'),
  /** Where the login-instructions email and the password page send people: starts the login. */
  login: appPath('/auth/login'),
  verificationRequired: appPath('/verification-required'),
  registrationSuccess: appPath('/registration-success'),
  kycStart: appPath('/kyc/start'),
  kycPersona: appPath('/kyc/persona'),
  kycComplete: appPath('/auth/kyc-complete'),
  kycCompleteDefense: appPath('/auth/kyc-complete-defense'),
  dashboard: appPath('/dashboard'),
  commercialDashboard: appPath('/commercial-dashboard'),
  defenseDashboard: appPath('/defense-dashboard'),
  userAccount: appPath('/user-account'),
  /** The organization's team (members, invitations): approved `org_admin`s only (ADR 0084). */
  organization: appPath('/organization'),
  adminVerification: {
    path: '/admin/verification',
    getHref: (status?: VerificationFilter) =>
      status ? `/admin/verification?status=${encodeURIComponent(status)}` : '/admin/verification',
    kind: 'app',
  } satisfies AppPath<[VerificationFilter?]>,
} as const;

export type PathKey = keyof typeof paths;

/** Old short URLs. CloudFront and local/web answer 301; the prerender also writes refresh pages. */
export const redirects: Readonly<Record<string, string>> = {
  '/terms': paths.termsAndConditions.basePath,
  '/privacy': paths.privacyPolicy.basePath,
};

/** The home sections the nav scrolls to (the home page gives its sections these ids). */
export const homeSections = {
  framework: 'framework',
  vision: 'vision',
  account: 'account',
  waitlist: 'waitlist',
} as const;

export const sectionHref = (section: keyof typeof homeSections) =>
  `${paths.home.path === '/' ? '/' : paths.home.path}#${homeSections[section]}`;

export const publicPaths: readonly PublicPath[] = Object.values(paths).filter(
  (entry): entry is PublicPath => entry.kind === 'public',
);

/** Public pages search engines may list (the sitemap). */
export const indexedPaths: readonly PublicPath[] = publicPaths.filter((entry) => entry.indexed);

/** The same page in another language (`/pricing` -> `/de/pricing`); undefined off this build's public pages. */
export function counterpartPath(pathname: string, locale: Locale): string | undefined {
  const path = normalizePath(pathname);
  const page = publicPaths.find((entry) => entry.path === path);
  return page ? localizedPath(page.basePath, locale) : undefined;
}

/** Client-only paths, kept out of search engines (robots.txt). */
export const appPaths: readonly string[] = Object.values(paths)
  .filter((entry) => entry.kind === 'app')
  .map((entry) => entry.path);

/** `/pricing/` and `/pricing/index.html` are the same page as `/pricing`. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/index\.html$/, '/').replace(/(?<!\/)\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** A path this build answers (a page, an app route or an old short URL); anything else is a 404. */
export function isKnownPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return Object.values(paths).some((entry) => entry.path === path) || path in redirects;
}
