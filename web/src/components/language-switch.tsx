import type { MouseEvent } from 'react';
import { useLocation } from 'react-router';
import { buildLocale, type Locale, localeStorageKey } from '#web/config/locale.ts';
import { counterpartPath } from '#web/config/paths.ts';
import { site } from '#web/content/site.ts';
import { storage } from '#web/lib/storage.ts';

const copy = site.language;
const other: Locale = buildLocale === 'de' ? 'en' : 'de';

/**
 * The other language, as a link (ADR 0089): a public page's version in that language, or (a
 * signed-in screen, one path in both) the same screen, reloaded in it. Following it stores the
 * choice under `locale`, which the head script and the app shell's loader read on every page.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const location = useLocation();
  const counterpart = counterpartPath(location.pathname, other);
  // The choice rides in the query too: the head script stores it, even when the link was followed
  // before this page hydrated (the click handler below was not attached yet).
  const search = new URLSearchParams(location.search);
  search.set(localeStorageKey, other);
  const href = `${counterpart ?? location.pathname}?${search}${location.hash}`;
  const choose = (event: MouseEvent<HTMLAnchorElement>) => {
    storage.set(localeStorageKey, other);
    if (counterpart === undefined) {
      // The same URL: a link to it could merely scroll to its fragment; load it again instead.
      event.preventDefault();
      window.location.reload();
    }
  };
  return (
    <a
      className={className}
      href={href}
      hrefLang={other}
      lang={other}
      aria-label={copy.switchToLabel}
      onClick={choose}
    >
      {copy.switchTo}
    </a>
  );
}
