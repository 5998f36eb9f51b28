import { type FocusEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths, sectionHref } from '#web/config/paths.ts';
import { site } from '#web/content/site.ts';
import { type AuthHint, signIn, useAuthHint } from '#web/lib/auth/index.ts';
import { useScrolledPast } from '#web/lib/scroll.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { useToast } from './toast.tsx';

const copy = site.nav;

/** `onLogOut` ends the session (the layout passes the session rules' end and the sign-out). */
export function SiteHeader({ onLogOut }: { onLogOut: () => Promise<void> }) {
  const scrolled = useScrolledPast(50);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLElement>(null);
  const location = useLocation();
  const hint = useAuthHint();

  // A navigation (also to a section of the same page) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is the trigger
  useEffect(() => setOpen(false), [location.key]);

  // Opening moves focus into the menu; Escape closes it and gives focus back to the button. Focus
  // leaving the menu and its button (Tab past the last link, Shift+Tab before the button) closes
  // it too, so focus never sits on content hidden behind the open panel.
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const closeWhenFocusLeaves = (event: FocusEvent) => {
    const to = event.relatedTarget as Node | null;
    if (to && to !== menuButton.current && !menu.current?.contains(to)) setOpen(false);
  };

  return (
    <header className={`site-header${scrolled ? ' site-header--scrolled' : ''}`}>
      <div className="container site-header__inner">
        <Link to={paths.home.getHref()} className="site-header__name" aria-label={site.homeLink}>
          {site.productName}
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="icon-button menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? copy.closeMenu : copy.openMenu}
          onClick={() => setOpen(!open)}
          onBlur={closeWhenFocusLeaves}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="icon-button__icon">
            <path d={open ? 'M5 5l14 14M19 5L5 19' : 'M3 6h18M3 12h18M3 18h18'} />
          </svg>
        </button>
        <nav
          ref={menu}
          id={menuId}
          aria-label={copy.label}
          className={`site-nav${open ? ' site-nav--open' : ''}`}
          onBlur={closeWhenFocusLeaves}
        >
          <ul className="site-nav__list">
            <li>
              <Link to={sectionHref('framework')}>{copy.framework}</Link>
            </li>
            <li>
              <Link to={sectionHref('vision')}>{copy.vision}</Link>
            </li>
            <li>
              <Link to={sectionHref('account')}>{copy.account}</Link>
            </li>
            <li className="site-nav__auth">
              <AuthSlot hint={hint} onLogOut={onLogOut} />
            </li>
            {/* For visitors (and in the prerendered HTML, where the session is not known yet). */}
            {(hint === 'signed-out' || hint === 'pending') && (
              <li>
                <Link to={sectionHref('waitlist')} className="button site-nav__cta">
                  {copy.requestAccess}
                </Link>
              </li>
            )}
            <li>
              <LanguageSwitch className="site-nav__language" />
            </li>
          </ul>
        </nav>
        <ThemeToggle />
      </div>
    </header>
  );
}

/**
 * Fixed width in every state, so Loading -> Log In never moves its neighbours. The seed's choices:
 * Log In for a visitor, Dashboard for an approved user (Verification Review for an administrator);
 * a signed-in user still onboarding gets their next step instead (ADR 0085), and Log Out.
 */
function AuthSlot({ hint, onLogOut }: { hint: AuthHint; onLogOut: () => Promise<void> }) {
  const toast = useToast();

  if (hint === 'pending') {
    return <span className="nav-auth nav-auth--pending">{copy.loading}</span>;
  }
  if (hint !== 'signed-out') {
    // An administrator's place is the review queue, not a user's dashboard; an organization's
    // approved admin also has the team page. `/auth/login` sends a signed-in user to their next step.
    const [to, label] =
      hint === 'admin'
        ? [paths.adminVerification, copy.verificationReview]
        : hint === 'onboarding'
          ? [paths.login, copy.nextStep]
          : [paths.dashboard, copy.dashboard];
    return (
      <span className="nav-auth-group">
        <Link className="nav-auth" to={to.getHref()}>
          {label}
        </Link>
        {hint === 'team' && (
          <Link className="nav-auth" to={paths.organization.getHref()}>
            {copy.team}
          </Link>
        )}
        <button
          type="button"
          className="nav-auth nav-auth--button"
          onClick={() => {
            onLogOut().catch(() => toast.error(copy.logOutFailed));
          }}
        >
          {copy.logOut}
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="nav-auth nav-auth--button"
      onClick={() => {
        signIn().catch(() => toast.error(copy.logInFailed, { title: copy.logInFailedTitle }));
      }}
    >
      {copy.logIn}
    </button>
  );
}
