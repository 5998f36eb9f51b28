import { useEffect } from 'react';
import { pageTitle, site } from '#web/content/site.ts';
import { absoluteUrl } from '#web/lib/site-url.ts';

export interface SeoProps {
  /** The page's own title; null on home, which carries the bare product name. */
  title: string | null;
  /** 50-160 characters: search engines show it under the title. */
  description: string;
  /** The page's path from `paths.ts` (canonical URL = SITE_URL + path). */
  path: string;
  /** Only where the page is not in English. */
  lang?: 'de';
  /** Keep the page out of search results (404, app routes). */
  noindex?: boolean;
}

const locales = { en: 'en_GB', de: 'de_DE' } as const;

/**
 * Head tags of one page. React 19 hoists them into <head>, on the server and on the client; the
 * prerender reads og:locale to write <html lang>, so the page's language is stated once, here.
 */
export function Seo({ title, description, path, lang, noindex }: SeoProps) {
  const fullTitle = pageTitle(title ?? undefined);
  const url = absoluteUrl(path);
  const language = lang ?? 'en';

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={url} />}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={site.productName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:locale" content={locales[language]} />
      <meta name="twitter:card" content="summary" />
    </>
  );
}
