import type { ReactNode } from 'react';
import type { DocumentSection } from '#web/content/pages/types.ts';

export type Slots = Partial<Record<NonNullable<DocumentSection['slot']>, ReactNode>>;

/** One section and its subsections; top-level sections are h2, subsections h3. */
export function PolicySection({
  section,
  level = 2,
  slots = {},
}: {
  section: DocumentSection;
  level?: 2 | 3;
  slots?: Slots;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="policy__section">
      <Heading id={section.id} className="section-anchor">
        {section.heading}
      </Heading>
      {section.paragraphs?.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {section.slot && slots[section.slot]}
      {section.items && (
        <ul>
          {section.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      {section.after?.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {section.subsections?.map((subsection) => (
        <PolicySection key={subsection.id} section={subsection} level={3} slots={slots} />
      ))}
    </section>
  );
}
