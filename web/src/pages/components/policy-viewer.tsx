import type { PolicyDocument } from '#web/content/pages/types.ts';
import { PolicySection } from './policy-sections.tsx';

/**
 * An embedded policy viewer (the page shows the title and date above it): a table of contents and the document in a scrollable region of its
 * own. The region is focusable, so keyboard users can scroll it with the arrow keys, and its
 * headings are real headings, so screen-reader users can jump between them.
 */
export function PolicyViewer({
  document,
  labels,
}: {
  document: PolicyDocument;
  labels: { contents: string; region: string };
}) {
  return (
    <div className="policy-viewer">
      <nav className="policy-viewer__toc" aria-labelledby="policy-toc-title">
        <h2 id="policy-toc-title">{labels.contents}</h2>
        <ol>
          {document.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ol>
      </nav>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard (WCAG 2.1.1). */}
      <section className="policy-viewer__document" aria-label={labels.region} tabIndex={0}>
        {document.intro?.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        {document.sections.map((section) => (
          <PolicySection key={section.id} section={section} />
        ))}
      </section>
    </div>
  );
}
