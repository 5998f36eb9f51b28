import { Fragment, type ReactNode, type Ref } from 'react';

/**
 * The receipt a form shows once its request was accepted, inside a live region that exists from
 * the start, so the receipt is announced when it appears.
 */
export function Receipt({
  accepted,
  title,
  headingRef,
  details,
  children,
}: {
  /** Whether the request was accepted: until then the region is empty. */
  accepted: boolean;
  title: ReactNode;
  /** For a form that moves the focus to the receipt: the heading then takes focus. */
  headingRef?: Ref<HTMLHeadingElement>;
  details: { term: string; value: ReactNode }[];
  children: ReactNode;
}) {
  return (
    <div role="status" className="receipt-region">
      {accepted && (
        <div className="receipt">
          <h3 ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
            {title}
          </h3>
          <dl className="receipt__details">
            {details.map(({ term, value }) => (
              <Fragment key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
          {children}
        </div>
      )}
    </div>
  );
}
