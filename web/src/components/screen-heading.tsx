import { type ReactNode, useEffect, useRef } from 'react';

// A signed-in screen's <h1>. It takes focus when it appears, so keyboard and screen-reader users
// start at the new screen's heading after a navigation (app screens render after their loading
// state, so the heading appearing is the moment the screen is there).
export function ScreenHeading({ children, className }: { children: ReactNode; className?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1} className={className ? `screen-heading ${className}` : 'screen-heading'}>
      {children}
    </h1>
  );
}
