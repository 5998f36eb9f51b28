// The route registry: every link goes through getHref, every route object uses path, and the
// prerender, sitemap and budgets read the public routes from here.

interface PublicPath {
  path: string;
  getHref: () => string;
  /** The lazy module `web/src/pages/<page>.tsx`. */
  page: string;
  /** Prerendered to `<path>/index.html` and listed in the sitemap. */
  kind: 'public';
}

const publicPath = (path: string, page: string): PublicPath => ({
  path,
  getHref: () => path,
  page,
  kind: 'public',
});

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
  documentation: publicPath('/documentation', 'documentation'),
  tutorials: publicPath('/tutorials', 'tutorials'),
  // App routes: rendered on the client from the fallback page, never prerendered or indexed.
  authCallback: { path: '/auth/callback', getHref: () => '/auth/callback', kind: 'app' },
  dashboard: { path: '/dashboard', getHref: () => '/dashboard', kind: 'app' },
} as const;

export type PathKey = keyof typeof paths;

/** Old short URLs. CloudFront and local/web answer 301; the prerender also writes refresh pages. */
export const redirects: Readonly<Record<string, string>> = {
  '/terms': paths.termsAndConditions.path,
  '/privacy': paths.privacyPolicy.path,
};

/** The home sections the nav scrolls to (the home page gives its sections these ids). */
export const homeSections = {
  framework: 'framework',
  vision: 'vision',
  account: 'account',
  waitlist: 'waitlist',
} as const;

export const sectionHref = (section: keyof typeof homeSections) => `/#${homeSections[section]}`;

export const publicPaths: readonly PublicPath[] = Object.values(paths).filter(
  (entry): entry is PublicPath => entry.kind === 'public',
);

/** Client-only paths, kept out of search engines (robots.txt). */
export const appPaths: readonly string[] = Object.values(paths)
  .filter((entry) => entry.kind === 'app')
  .map((entry) => entry.path);

/** `/pricing/` and `/pricing/index.html` are the same page as `/pricing`. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/index\.html$/, '/').replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
