import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { site } from '#web/content/site.ts';
import {
  type CookieChoices,
  type CookieConsent,
  choices,
} from '#web/features/cookie-consent/lib/consent-store.ts';

interface CookieBannerProps {
  initial: CookieConsent | null;
  /** Reopened from "Cookie settings": show the toggles at once and take focus. */
  startCustomizing: boolean;
  /**
   * Prerendered and not yet hydrated: shown only if the head script asked for it, and the buttons
   * are disabled until React can act on them (a click would otherwise be lost).
   */
  pending?: boolean;
  onChoose(choices: CookieChoices): void;
  /** Only when a choice exists: closing keeps it. */
  onClose?: () => void;
}

const toggles = ['analytics', 'marketing', 'personalization'] as const;
const copy = site.cookieBanner;

/**
 * A labelled, non-modal region fixed to the bottom of the viewport; the page stays usable. While
 * it shows, the page reserves its space and scrolls focus above it, and it is never taller than
 * that space (CSS only, web/src/styles/platform.css; ADR 0087).
 */
export function CookieBanner({
  initial,
  startCustomizing,
  pending = false,
  onChoose,
  onClose,
}: CookieBannerProps) {
  const titleId = useId();
  const [customizing, setCustomizing] = useState(startCustomizing);
  const [draft, setDraft] = useState<CookieChoices>(initial ?? choices.none);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (startCustomizing) heading.current?.focus();
  }, [startCustomizing]);

  useEffect(() => {
    if (!onClose) return;
    const close = onClose;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <section className="cookie-banner" aria-labelledby={titleId} data-pending={pending ? '' : undefined}>
      <div className="cookie-banner__inner">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="cookie-banner__title">
          {copy.title}
        </h2>
        <p className="cookie-banner__body">
          {copy.body} <Link to={paths.cookiePolicy.getHref()}>{copy.policyLink}</Link>
        </p>
        {customizing && (
          <fieldset className="cookie-banner__choices">
            <legend className="visually-hidden">{copy.customize}</legend>
            <label className="cookie-banner__choice">
              <input type="checkbox" checked disabled />
              {copy.essential}
            </label>
            {toggles.map((key) => (
              <label key={key} className="cookie-banner__choice">
                <input
                  type="checkbox"
                  checked={draft[key]}
                  onChange={(event) => setDraft({ ...draft, [key]: event.target.checked })}
                />
                {copy[key]}
              </label>
            ))}
          </fieldset>
        )}
        <div className="cookie-banner__actions">
          <button type="button" className="button" disabled={pending} onClick={() => onChoose(choices.all)}>
            {copy.acceptAll}
          </button>
          <button type="button" className="button" disabled={pending} onClick={() => onChoose(choices.none)}>
            {copy.rejectAll}
          </button>
          {customizing ? (
            <button type="button" className="button button--secondary" onClick={() => onChoose(draft)}>
              {copy.save}
            </button>
          ) : (
            <button
              type="button"
              className="button button--secondary"
              aria-expanded={false}
              disabled={pending}
              onClick={() => setCustomizing(true)}
            >
              {copy.customize}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
