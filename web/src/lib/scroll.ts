import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useLocation, useNavigationType } from 'react-router';

function subscribeScroll(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** Whether the page is scrolled further than `offset` pixels (false in prerendered HTML). */
export function useScrolledPast(offset: number): boolean {
  return useSyncExternalStore(
    subscribeScroll,
    () => window.scrollY > offset,
    () => false,
  );
}

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * After a client-side navigation: to `#section`, scroll to that element and move focus there (so
 * keyboard and screen-reader users land where sighted users look); to a new page, start at the
 * top. The first render is left alone: the browser already honours the URL's hash on load.
 */
export function useScrollOnNavigation(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);

  // location.key changes on every navigation, also to the same hash again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is the trigger
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (target) {
      target.scrollIntoView?.({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    } else if (navigationType !== 'POP') {
      window.scrollTo?.(0, 0);
    }
  }, [location.key, location.hash, navigationType]);
}
