import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/legal/eula.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

export const eula = {
  meta: {
    title: 'Endbenutzer-Lizenzvertrag',
    description:
      'Der Endbenutzer-Lizenzvertrag für die Plattform: Lizenzeinräumung, Beschränkungen, Kundendaten, Vergütung und Widerruf, Haftung und anwendbares Recht.',
  },
  title: 'Endbenutzer-Lizenzvertrag',
  lastUpdated: '2025-06-08',
  lastUpdatedLabel: 'Stand',
  viewer: {
    lead: 'Lesen Sie den Vertrag unten oder springen Sie über das Inhaltsverzeichnis zu einem Abschnitt.',
    contents: 'Inhalt',
    region: 'Text des Endbenutzer-Lizenzvertrags',
  },
  intro: [
    'Dieser Endbenutzer-Lizenzvertrag („Vertrag“) regelt die Nutzung der Plattform, ihrer Quantum Engine, ihrer APIs und ihrer Dokumentation (zusammen der „Dienst“) durch jede Person, die sie im Namen einer registrierten Organisation („Kunde“) nutzt.',
  ],
  sections: [
    {
      id: 'begriffsbestimmungen',
      heading: '1. Begriffsbestimmungen',
      items: [
        '„Berechtigter Nutzer“: eine für den Kunden handelnde Person, deren Identität geprüft wurde.',
        '„Kundendaten“: Genomsequenzen, Metadaten und sonstige Daten, die der Kunde hochlädt.',
        '„Ergebnisse“: Vorhersagen, Simulationen und Berichte, die der Dienst für den Kunden erzeugt.',
      ],
    },
    {
      id: 'lizenz',
      heading: '2. Einräumung der Lizenz',
      paragraphs: [
        'Nach Maßgabe dieses Vertrags und gegen Zahlung der Vergütung räumen wir dem Kunden für die Laufzeit des Abonnements eine einfache, nicht übertragbare und nicht unterlizenzierbare Lizenz ein, seinen Berechtigten Nutzern den Zugriff auf den Dienst und dessen Nutzung für interne Zwecke des Kunden zu gestatten.',
      ],
    },
    {
      id: 'beschraenkungen',
      heading: '3. Beschränkungen',
      paragraphs: ['Der Kunde und seine Berechtigten Nutzer dürfen nicht:'],
      items: [
        'den Dienst entgegen der Richtlinie zur zulässigen Nutzung nutzen, insbesondere um Krankheitserreger zu erzeugen oder zu verstärken;',
        'Zugangsdaten weitergeben oder Personen, die nicht geprüft wurden, den Dienst nutzen lassen;',
        'den Dienst oder seine Modelle zurückentwickeln (Reverse Engineering), dekompilieren oder kopieren, soweit das Gesetz dies nicht ausdrücklich erlaubt;',
        'den Dienst nutzen, um ein Konkurrenzprodukt zu entwickeln, oder ihn ohne unsere schriftliche Zustimmung öffentlichen Vergleichstests (Benchmarks) unterziehen.',
      ],
    },
    {
      id: 'eigentum',
      heading: '4. Rechte am Dienst und an den Daten',
      paragraphs: [
        'Der Dienst und alle Rechte des geistigen Eigentums daran stehen uns zu. Kundendaten und Ergebnisse stehen dem Kunden zu. Wir nutzen Kundendaten nur, um den Dienst zu erbringen, und zum Training unserer Modelle nur mit ausdrücklicher Erlaubnis des Kunden.',
      ],
    },
    {
      id: 'daten',
      heading: '5. Kundendaten und Datenschutz',
      paragraphs: [
        `Kundendaten werden in der AWS-Region ${f.awsRegion} (${f.awsRegionName}) gespeichert und bei der Speicherung wie bei der Übertragung verschlüsselt. Soweit wir personenbezogene Daten im Auftrag des Kunden verarbeiten, gilt der Auftragsverarbeitungsvertrag; im Übrigen gilt unsere Datenschutzerklärung.`,
      ],
    },
    {
      id: 'vertraulichkeit',
      heading: '6. Vertraulichkeit',
      paragraphs: [
        'Jede Partei behandelt vertrauliche Informationen der anderen Partei während der Vertragslaufzeit und fünf Jahre über deren Ende hinaus vertraulich und nutzt sie nur zur Erfüllung dieses Vertrags.',
      ],
    },
    {
      id: 'verguetung',
      heading: '7. Vergütung und Widerruf',
      paragraphs: [
        'Die Vergütung ergibt sich aus der Bestellung des Kunden für den Organization Plan und wird jährlich im Voraus in Rechnung gestellt.',
        `Ein Kunde, der Verbraucher ist, kann den Vertrag binnen ${f.withdrawalDays} Tagen nach Vertragsschluss ohne Angabe von Gründen widerrufen (Widerrufsrecht für digitale Dienstleistungen). Hat der Kunde verlangt, dass wir innerhalb dieser Frist mit der Leistung beginnen, zahlt er für die bis zum Widerruf erbrachten Leistungen.`,
      ],
    },
    {
      id: 'laufzeit',
      heading: '8. Laufzeit und Kündigung',
      paragraphs: [
        'Dieser Vertrag läuft so lange wie das Abonnement des Kunden. Jede Partei kann ihn bei einer wesentlichen Vertragsverletzung kündigen. Bei einem Verstoß gegen die Richtlinie zur zulässigen Nutzung können wir den Zugang sofort sperren. Nach Vertragsende kann der Kunde seine Daten 30 Tage lang exportieren; danach löschen wir sie, ausgenommen Unterlagen, die wir gesetzlich aufbewahren müssen.',
      ],
    },
    {
      id: 'aufbewahrung',
      heading: '9. Unterlagen, die wir aufbewahren',
      paragraphs: [
        `Vertragsunterlagen bewahren wir ${f.contractRetentionYears} Jahre, Finanzunterlagen etwa ${f.financialRecordsYears} Jahre und Unterlagen zur Identitätsprüfung (KYC) ${f.kycRetentionYears} Jahre nach Ende der Geschäftsbeziehung auf, wie es das Gesetz verlangt.`,
      ],
    },
    {
      id: 'gewaehrleistung',
      heading: '10. Gewährleistung',
      paragraphs: [
        'Wir erbringen den Dienst mit angemessener Sorgfalt und Fachkunde. Ergebnisse sind wissenschaftliche Vorhersagen mit angegebener Konfidenz; sie ersetzen nicht die eigene fachliche Beurteilung des Kunden, und wir übernehmen keine Gewähr dafür, dass eine Vorhersage eintritt.',
      ],
    },
    {
      id: 'haftung',
      heading: '11. Haftungsbeschränkung',
      paragraphs: [
        'Wir haften unbeschränkt für Vorsatz, grobe Fahrlässigkeit und die Verletzung des Lebens, des Körpers oder der Gesundheit. Bei leichter Fahrlässigkeit haften wir nur für die Verletzung einer wesentlichen Vertragspflicht und nur bis zur Höhe des vorhersehbaren, vertragstypischen Schadens.',
      ],
    },
    {
      id: 'exportkontrolle',
      heading: '12. Exportkontrolle',
      paragraphs: [
        'Der Kunde beachtet die Exportkontroll- und Sanktionsvorschriften der Europäischen Union, Deutschlands und jeder anderen anwendbaren Rechtsordnung, einschließlich der Verordnung (EU) 2021/821 über Güter mit doppeltem Verwendungszweck (Dual-Use-Verordnung).',
      ],
    },
    {
      id: 'anwendbares-recht',
      heading: '13. Anwendbares Recht',
      paragraphs: [
        'Dieser Vertrag unterliegt dem Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Soweit gesetzlich zulässig, sind die Gerichte an unserem Sitz zuständig.',
      ],
    },
    {
      id: 'kontakt',
      heading: '14. Kontakt',
      paragraphs: ['Fragen zu diesem Vertrag richten Sie bitte an die im Impressum genannte Adresse.'],
    },
  ],
} as const satisfies PolicyDocument & { viewer: Record<string, string> } satisfies Localized<typeof en.eula>;
