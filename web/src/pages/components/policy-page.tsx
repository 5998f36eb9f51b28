import type { ReactNode } from 'react';
import { Seo } from '#web/components/seo.tsx';
import { buildLocale, localizedPath, splitLocalizedPath } from '#web/config/locale.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';
import { formatCalendarDate } from '#web/lib/dates.ts';
import { PolicySection, type Slots } from './policy-sections.tsx';

/**
 * A legal text as a page: h1, the date of the last change, which version is binding (where one
 * is), the introduction and the sections.
 */
export function PolicyPage({
  document,
  path,
  slots,
  children,
}: {
  document: PolicyDocument;
  path: string;
  slots?: Slots;
  /** Rendered after the date line, e.g. a revision number. */
  children?: ReactNode;
}) {
  const other = buildLocale === 'de' ? 'en' : 'de';
  return (
    <>
      <Seo title={document.meta.title} description={document.meta.description} path={path} />
      <article className="container prose policy">
        <h1>{document.title}</h1>
        <p className="policy__updated">
          {document.lastUpdatedLabel}:{' '}
          <time dateTime={document.lastUpdated}>{formatCalendarDate(document.lastUpdated)}</time>
        </p>
        {document.binding ? (
          <p className="policy__binding">
            {document.binding.notice}{' '}
            <a href={localizedPath(splitLocalizedPath(path).path, other)} hrefLang={other} lang={other}>
              {document.binding.otherVersion}
            </a>
          </p>
        ) : null}
        {children}
        {document.intro?.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        {document.sections.map((section) => (
          <PolicySection key={section.id} section={section} slots={slots} />
        ))}
      </article>
    </>
  );
}
