import { useEffect, useRef } from 'react';
import { Link, useNavigationType } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { checkYourEmail as copy } from '#web/content/check-your-email.ts';

export function Component() {
  const heading = useRef<HTMLHeadingElement>(null);
  const navigationType = useNavigationType();

  // Arriving from the wizard (a client-side navigation), keyboard and screen-reader users start
  // at the heading, not on the button they pressed; a page load starts at the top as usual.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on arrival only
  useEffect(() => {
    if (navigationType !== 'POP') heading.current?.focus();
  }, []);

  return (
    <>
      <Seo
        title={copy.meta.title}
        description={copy.meta.description}
        path={paths.checkYourEmail.path}
        noindex
      />
      <div className="container page-body check-email">
        <h1 ref={heading} tabIndex={-1}>
          {copy.title}
        </h1>
        <p className="lead">{copy.lead}</p>
        {copy.body.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <div className="actions">
          {/* No address: the mail app opens (a new message), from which the inbox is one tap away. */}
          <a className="button" href="mailto:">
            {copy.openEmail}
          </a>
          <Link className="button button--secondary" to={paths.home.getHref()}>
            {copy.home}
          </Link>
        </div>
        <p className="note check-email__help">
          {copy.help} <Link to={paths.contact.getHref()}>{copy.contact}</Link>
        </p>
      </div>
    </>
  );
}
