import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate, useNavigationType } from 'react-router';
import type { RegistrationRequest } from '#contracts/registration.ts';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { checkYourEmail as copy } from '#web/content/check-your-email.ts';
import { useHydrated } from '#web/lib/hydrated.ts';
import { ResendLoginInstructions } from '#web/pages/components/resend-login-instructions.tsx';

/** This page's history entry, as the wizard left it (ADR 0086). */
interface SentState {
  registration?: RegistrationRequest;
  resent?: number;
}

function sentState(state: unknown): { registration: RegistrationRequest; resent: number } | undefined {
  const sent = state as SentState | null;
  if (typeof sent?.registration?.responsibleEmail !== 'string') return undefined;
  return { registration: sent.registration, resent: typeof sent.resent === 'number' ? sent.resent : 0 };
}

export function Component() {
  const heading = useRef<HTMLHeadingElement>(null);
  const navigationType = useNavigationType();
  const location = useLocation();
  const navigate = useNavigate();
  // The request the wizard sent lives in this page's history entry: a reload keeps it, and the
  // prerendered page (which cannot know it) hydrates without it first.
  const sent = useHydrated() ? sentState(location.state) : undefined;

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
        <p className="check-email__address">
          {sent ? (
            <>
              {copy.sentTo[0]}
              <strong>{sent.registration.responsibleEmail}</strong>
              {copy.sentTo[1]}
            </>
          ) : (
            copy.sentToYou
          )}
        </p>
        {copy.body.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <div className="actions">
          {copy.inboxes.map((inbox) => (
            <a
              key={inbox.href}
              className="button"
              href={inbox.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              {inbox.label} <span className="visually-hidden">{copy.newTab}</span>
            </a>
          ))}
          <Link className="button button--secondary" to={paths.home.getHref()}>
            {copy.home}
          </Link>
        </div>
        {sent && (
          <>
            <ResendLoginInstructions
              registration={sent.registration}
              resent={sent.resent}
              onResent={(resent) =>
                navigate(location, {
                  replace: true,
                  preventScrollReset: true,
                  state: { registration: sent.registration, resent } satisfies SentState,
                })
              }
            />
            <p>
              {copy.wrongAddress} <Link to={paths.register.getHref()}>{copy.registerAgain}</Link>
            </p>
          </>
        )}
        <p className="note check-email__help">
          {copy.help} <Link to={paths.contact.getHref()}>{copy.contact}</Link>
        </p>
      </div>
    </>
  );
}
