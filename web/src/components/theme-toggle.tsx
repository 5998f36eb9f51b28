import { site } from '#web/content/site.ts';
import { setTheme, useTheme } from '#web/lib/theme.ts';

export function ThemeToggle() {
  const theme = useTheme();
  const label =
    theme === 'dark'
      ? site.theme.switchToLight
      : theme === 'light'
        ? site.theme.switchToDark
        : site.theme.unknown;

  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={label}
      title={label}
      onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
    >
      {/* Both icons are always rendered; CSS shows the one matching data-theme, so HTML never differs. */}
      <svg className="icon-button__icon theme-toggle__icon--moon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
      <svg className="icon-button__icon theme-toggle__icon--sun" viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="4.5" />
        <path d="M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1" />
      </svg>
    </button>
  );
}
