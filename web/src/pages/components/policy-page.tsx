import type { ReactNode } from 'react';
import { Seo } from '#web/components/seo.tsx';
import type { PolicyDocument } from '#web/content/pages/types.ts';
import { formatCalendarDate } from '#web/lib/dates.ts';
import { PolicySection, type Slots } from './policy-sections.tsx';

/** A legal text as a page: h1, the date of the last change, the introduction and the sections. */
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
  const lang = document.meta.lang;
  return (
    <>
      <Seo title={document.meta.title} description={document.meta.description} path={path} lang={lang} />
      {/* lang on the article too: assistive technology reads the text in the right language even
          before the client updates <html lang> after a navigation. */}
      <article className="container prose policy" lang={lang}>
        <h1>{document.title}</h1>
        <p className="policy__updated">
          {document.lastUpdatedLabel}:{' '}
          <time dateTime={document.lastUpdated}>
            {formatCalendarDate(document.lastUpdated, lang ?? 'en')}
          </time>
        </p>
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
