import { buildLocale, type Locale, localizedPath, splitLocalizedPath } from '#web/config/locale.ts';
import { pageTitle, site } from '#web/content/site.ts';
import { absoluteUrl } from '#web/lib/site-url.ts';

export interface SeoProps {
  /** The page's own title; null on home, which carries the bare product name. */
  title: string | null;
  /** 50-160 characters: search engines show it under the title. */
  description: string;
  /** The page's path from `paths.ts`, in this build's language (canonical URL = SITE_URL + path). */
  path: string;
  /** Keep the page out of search results (404, app routes). */
  noindex?: boolean;
}

const ogLocales: Record<Locale, string> = { en: 'en_GB', de: 'de_DE' };

/**
 * Head tags of one page. React 19 hoists them into <head>, on the server and on the client; the
 * prerender reads og:locale to write <html lang>, so the page's language is stated once, here: the
 * build's (ADR 0089; the head script states the app shell's, which is never prerendered in German). An indexed page names its version in each language (`hreflang` alternates,
 * English the default for other languages).
 */
export function Seo({ title, description, path, noindex }: SeoProps) {
  const fullTitle = pageTitle(title ?? undefined);
  const url = absoluteUrl(path);
  const english = splitLocalizedPath(path).path;
  const versions = { en: english, de: localizedPath(english, 'de'), 'x-default': english };

  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={url} />}
      {noindex
        ? null
        : Object.entries(versions).map(([language, href]) => (
            <link key={language} rel="alternate" hrefLang={language} href={absoluteUrl(href)} />
          ))}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={site.productName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:locale" content={ogLocales[buildLocale]} />
      <meta name="twitter:card" content="summary" />
    </>
  );
}
