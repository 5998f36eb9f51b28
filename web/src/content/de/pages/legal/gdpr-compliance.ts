import type { Localized } from '#web/content/localized.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type * as en from '#web/content/pages/legal/gdpr-compliance.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

export const gdprCompliance = {
  meta: {
    title: 'DSGVO-Konformität',
    description:
      'Wie die Plattform die DSGVO einhält: Hosting in der EU (Frankfurt), Rechtsgrundlagen, Einwilligungsnachweise, Speicherfristen, Auftragsverarbeiter und Ihre Rechte.',
  },
  title: 'DSGVO-Konformität',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Stand',
  intro: [
    'Wir entwickeln die Plattform für Organisationen, die mit sensiblen Daten arbeiten; Datenschutz ist daher Teil ihrer Konzeption. Diese Seite fasst zusammen, wie wir die Datenschutz-Grundverordnung (DSGVO) einhalten; alle Einzelheiten enthält unsere Datenschutzerklärung.',
  ],
  sections: [
    {
      id: 'datenstandort',
      heading: 'Speicherort der Daten',
      paragraphs: [
        `Die Plattform läuft bei Amazon Web Services in der Region ${f.awsRegion} (${f.awsRegionName}). Alles, was wir selbst speichern, bleibt dort, verschlüsselt bei der Speicherung und bei der Übertragung.`,
      ],
    },
    {
      id: 'rechtsgrundlagen',
      heading: 'Rechtsgrundlagen',
      items: [
        'Vertrag (Art. 6 Abs. 1 lit. b DSGVO): die Registrierung, Ihr Konto, der Dienst selbst und transaktionale E-Mails.',
        'Einwilligung (Art. 6 Abs. 1 lit. a DSGVO und für biometrische Daten Art. 9 Abs. 2 lit. a DSGVO): die Warteliste, die Identitätsprüfung, optionale Cookies.',
        'Rechtliche Verpflichtung (Art. 6 Abs. 1 lit. c DSGVO): Einwilligungsnachweise, steuer- und handelsrechtliche Unterlagen, Aufzeichnungen nach dem Geldwäschegesetz.',
        'Berechtigte Interessen (Art. 6 Abs. 1 lit. f DSGVO): Sicherheitsprotokolle und die Beantwortung geschäftlicher Anfragen.',
      ],
    },
    {
      id: 'einwilligungsnachweis',
      heading: 'Nachweisbare Einwilligung',
      paragraphs: [
        'Jede Einwilligung und jede Zustimmung zu unseren Bedingungen wird in ein Einwilligungsprotokoll geschrieben, das nur Ergänzungen zulässt: wer (über eine pseudonyme Kennung), was (die Version und ein SHA-256-Hash des genau angezeigten Textes), wann, wie, sowie ein Hash des vorherigen Eintrags, sodass jede Manipulation erkennbar ist. Ein Widerruf der Einwilligung fügt einen neuen Eintrag hinzu; nichts wird überschrieben.',
      ],
    },
    {
      id: 'identitaetspruefung',
      heading: 'Identitätsprüfung',
      paragraphs: [
        'Die Identitätsprüfung erfolgt über Persona mit einem Gesichtsabgleich zwischen einem Selfie und einem Ausweisfoto, und zwar nur nach gesonderter, ausdrücklicher Einwilligung in die Verarbeitung biometrischer Daten. Wir speichern das Ergebnis und seinen Verlauf; die Bilder verbleiben bei Persona und werden geschwärzt, sobald sie nicht mehr benötigt werden.',
      ],
    },
    {
      id: 'auftragsverarbeiter',
      heading: 'Auftragsverarbeiter',
      paragraphs: [
        'Wir arbeiten ausschließlich mit Auftragsverarbeitern, die an einen Auftragsverarbeitungsvertrag (Art. 28 DSGVO) gebunden sind:',
      ],
      items: [
        'Amazon Web Services: Hosting, Datenbanken, Auslieferung von Inhalten und E-Mail-Versand (Amazon SES).',
        'Auth0 by Okta: Konten und Anmeldung.',
        'Persona: Identitätsprüfung. Übermittlungen in die USA stützen sich auf das EU-US Data Privacy Framework oder auf Standardvertragsklauseln.',
      ],
    },
    {
      id: 'speicherdauer',
      heading: 'Speicherdauer',
      items: [
        `Vertragsdaten und Einwilligungsnachweise: ${f.contractRetentionYears} Jahre.`,
        `KYC-Daten: ${f.kycRetentionYears} Jahre nach Ende der Geschäftsbeziehung.`,
        `Finanzunterlagen: etwa ${f.financialRecordsYears} Jahre.`,
        `Website-Logs: ${f.websiteLogRetentionDays} Tage.`,
      ],
    },
    {
      id: 'ihre-rechte',
      heading: 'Ihre Rechte',
      paragraphs: [
        `Sie können Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung und Datenübertragbarkeit verlangen, der Verarbeitung widersprechen und Einwilligungen jederzeit widerrufen. Wir antworten innerhalb von ${f.deletionDeadlineDays} Tagen. Löschanträge können Sie auf unserer Seite zur Datenlöschung stellen; außerdem können Sie sich bei einer Aufsichtsbehörde beschweren.`,
      ],
    },
    {
      id: 'sicherheit',
      heading: 'Sicherheit',
      paragraphs: [
        'Zugriff nach dem Prinzip der geringsten Rechte, Verschlüsselung, Audit-Protokollierung, eine strikte Content Security Policy auf dieser Website und Kontrollen, die jährlich für SOC 2 geprüft werden.',
      ],
    },
  ],
} as const satisfies PolicyDocument satisfies Localized<typeof en.gdprCompliance>;
