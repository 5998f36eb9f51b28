import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/not-found.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export const notFound = {
  meta: {
    title: 'Seite nicht gefunden',
    description:
      'Die gesuchte Seite existiert nicht oder wurde verschoben. Kehren Sie zur Startseite zurück.',
  } satisfies PageMeta,
  title: 'Seite nicht gefunden',
  body: 'Die gesuchte Seite existiert nicht oder wurde verschoben.',
  home: 'Zur Startseite',
} as const satisfies Localized<typeof en.notFound>;
