import { type ReactNode, StrictMode } from 'react';

/** App-wide providers; sign-in and similar contexts join here. */
export function AppProvider({ children }: { children: ReactNode }) {
  return <StrictMode>{children}</StrictMode>;
}
