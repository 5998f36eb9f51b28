import { type ReactNode, useEffect, useRef } from 'react';

// A signed-in screen's <h1>. It takes focus when it appears, so keyboard and screen-reader users
// start at the new screen's heading after a navigation (app screens render after their loading
// state, so the heading appearing is the moment the screen is there). The ring shows only where the
// browser's `:focus-visible` says the user navigates by keyboard (app.css). A page the user has not
// touched yet (back from the identity provider, a reload, an emailed link) would show it to a mouse
// user too: Chromium rings a focus moved by script before any input, so there it is asked not to.
export function ScreenHeading({ children, className }: { children: ReactNode; className?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Not yet touched: `focusVisible: false`; otherwise `undefined`, the browser's own judgement.
    heading.current?.focus({ focusVisible: navigator.userActivation?.hasBeenActive && undefined });
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1} className={className ? `screen-heading ${className}` : 'screen-heading'}>
      {children}
    </h1>
  );
}
