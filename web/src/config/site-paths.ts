// Every language's public pages (ADR 0089), for what serves or checks the whole site: the edge's
// path mapping (infra/site/), the prerender's sitemap and robots.txt, the bench and the tests. The
// web app itself reads only its own build's `paths` (./paths.ts): no page carries this list.
import { type Locale, locales, localizedPath } from './locale.ts';
import { appPaths, normalizePath, paths, publicPaths, redirects } from './paths.ts';

/** One public page in one language. */
export interface LocalizedPublicPath {
  path: string;
  basePath: string;
  locale: Locale;
  page: string;
  indexed: boolean;
}

/** Every language's public pages: English first, then German (`/de`, `/de/pricing`, ...). */
export const localizedPublicPaths: readonly LocalizedPublicPath[] = locales.flatMap((locale) =>
  publicPaths.map(({ basePath, page, indexed }) => ({
    path: localizedPath(basePath, locale),
    basePath,
    locale,
    page,
    indexed,
  })),
);

/** The public page at `pathname` in any language, or undefined. */
export function localizedPublicPath(pathname: string): LocalizedPublicPath | undefined {
  const path = normalizePath(pathname);
  return localizedPublicPaths.find((entry) => entry.path === path);
}

/** A path the site answers in any language (a page, an app route or an old short URL); anything else is a 404. */
export function isKnownSitePath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return (
    localizedPublicPath(path) !== undefined ||
    appPaths.includes(path) ||
    Object.values(paths).some((entry) => entry.path === path) ||
    path in redirects
  );
}
