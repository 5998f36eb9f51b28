import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/legal/cookie-policy.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

export const cookiePolicy = {
  meta: {
    title: 'Cookie-Richtlinie',
    description:
      'Welche Cookies und Einträge im lokalen Speicher die Website verwendet, wozu, wie lange, und wie Sie Ihre Cookie-Einstellungen jederzeit ändern.',
  },
  title: 'Cookie-Richtlinie',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Stand',
  revisionLabel: 'Fassung der Richtlinie',
  settingsButton: 'Cookie-Einstellungen',
  intro: [
    'Diese Richtlinie erläutert die Cookies und Einträge im Browserspeicher, die unsere Website verwendet. Wir fragen Sie bei Ihrem ersten Besuch nach Ihrer Auswahl und erneut, wenn sich diese Richtlinie in einem wesentlichen Punkt ändert.',
  ],
  sections: [
    {
      id: 'was-sind-cookies',
      heading: 'Was Cookies und lokaler Speicher sind',
      paragraphs: [
        'Cookies und Einträge im lokalen Speicher (Local Storage) sind kleine Datensätze, die eine Website in Ihrem Browser ablegt. Für alles, was unsere Website selbst speichert, verwendet sie den lokalen Speicher statt Cookies.',
      ],
    },
    {
      id: 'kategorien',
      heading: 'Kategorien',
      subsections: [
        {
          id: 'notwendig',
          heading: 'Notwendig (immer aktiv)',
          paragraphs: ['Erforderlich, damit die Website funktioniert; sie bedürfen keiner Einwilligung.'],
          items: [
            '„theme“: Ihre Wahl zwischen hellem und dunklem Design. Gespeichert, bis Sie sie löschen.',
            '„cookie-consent“ und „cookie-consent-date“: Ihre Cookie-Auswahl und wann Sie sie getroffen haben.',
            'Anmeldesitzung (nur nach Ihrer Anmeldung): Token unseres Identitätsanbieters Auth0, die Sie angemeldet halten.',
          ],
        },
        {
          id: 'analyse',
          heading: 'Analyse',
          paragraphs: [
            'Diese Cookies helfen uns zu verstehen, wie die Website insgesamt genutzt wird, damit wir sie verbessern können. Nur mit Ihrer Einwilligung.',
          ],
        },
        {
          id: 'marketing',
          heading: 'Marketing',
          paragraphs: [
            'Diese Cookies messen die Wirkung unserer Kampagnen und zeigen Ihnen an anderer Stelle relevante Informationen über die Plattform. Nur mit Ihrer Einwilligung.',
          ],
        },
        {
          id: 'personalisierung',
          heading: 'KI-Personalisierung',
          paragraphs: [
            'Diese Cookies passen die angezeigten Inhalte, etwa Beispiele für Ihre Branche, daran an, wie Sie die Website nutzen. Nur mit Ihrer Einwilligung.',
          ],
        },
      ],
    },
    {
      id: 'nachweis',
      heading: 'Wie wir Ihre Auswahl festhalten',
      paragraphs: [
        `Wenn Sie eine Auswahl treffen, speichern wir sie in Ihrem Browser und senden sie mit einer zufälligen Kennung und der Fassung der Richtlinie an unsere Server, damit wir sie nachweisen können. Diesen Nachweis bewahren wir ${f.cookieConsentMonths} Monate lang auf, ohne Ihre Browserkennung und mit gekürzter IP-Adresse; nach ${f.cookieConsentMonths} Monaten oder wenn sich die Fassung der Richtlinie ändert, fragen wir erneut.`,
      ],
    },
    {
      id: 'aendern',
      heading: 'Ihre Auswahl ändern',
      paragraphs: [
        'Sie können Ihre Auswahl jederzeit über die Schaltfläche „Cookie-Einstellungen“ unten oder in der Fußzeile jeder Seite ändern oder widerrufen. Der Widerruf berührt nicht die Rechtmäßigkeit der bis dahin erfolgten Verarbeitung.',
      ],
      slot: 'cookie-settings',
    },
    {
      id: 'weitere-informationen',
      heading: 'Weitere Informationen',
      paragraphs: [
        `Unsere Datenschutzerklärung erläutert, wie wir personenbezogene Daten verarbeiten, und beschreibt Ihre Rechte. Website-Logs werden nach ${f.websiteLogRetentionDays} Tagen gelöscht.`,
      ],
    },
  ],
} as const satisfies PolicyDocument & {
  revisionLabel: string;
  settingsButton: string;
} satisfies Localized<typeof en.cookiePolicy>;
