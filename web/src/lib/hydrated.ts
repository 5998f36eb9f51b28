import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

/** True from `hydrationStarts()` (boot, right before `hydrateRoot`) until the page is interactive. */
let hydrating = false;

/** boot.tsx calls it right before it hydrates prerendered HTML. */
export function hydrationStarts(): void {
  hydrating = true;
}

const subscribe = () => () => {};

/**
 * False in prerendered HTML and while React hydrates it, true once the page is interactive.
 * Forms keep their submit button disabled until then, so an early click cannot post natively.
 * A page rendered afresh, or a form mounted on a client-side navigation, is interactive at once.
 *
 * After hydration the switch to true is a transition (ADR 0044): React re-renders the form fields
 * in slices it can interrupt. Had the client snapshot below been true while hydrating, React would
 * re-render every one of them in one synchronous pass right after hydration: a long task on a phone.
 */
export function useHydrated(): boolean {
  const ready = useSyncExternalStore(
    subscribe,
    () => !hydrating,
    () => false,
  );
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    if (!ready) startTransition(() => setHydrated(true));
  }, [ready]);
  useEffect(() => {
    // Only once the transition has committed: flipped earlier, React would see the snapshot
    // change under the components still hydrating and re-render them synchronously.
    if (hydrated) hydrating = false;
  }, [hydrated]);
  return ready || hydrated;
}
