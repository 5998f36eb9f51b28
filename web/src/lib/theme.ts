import { useSyncExternalStore } from 'react';
import { themeStorageKey } from './theme-key.ts';

export type Theme = 'light' | 'dark';

function currentTheme(): Theme | null {
  const value = document.documentElement.dataset.theme;
  return value === 'dark' || value === 'light' ? value : null;
}

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

/**
 * The theme set on <html> by the inline head script. Prerendered HTML cannot know it, so the
 * server snapshot is null and React switches to the real value right after hydration.
 */
export function useTheme(): Theme | null {
  return useSyncExternalStore(subscribe, currentTheme, () => null);
}

export function setTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(themeStorageKey, theme);
  } catch {
    // Storage can be disabled; the choice then lasts for this page only.
  }
}
