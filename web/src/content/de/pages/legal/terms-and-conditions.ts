import { consentVersions } from '#contracts/consent-documents.ts';
import type { Localized } from '#web/content/localized.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type * as en from '#web/content/pages/legal/terms-and-conditions.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

// The version is the one the registration wizard records agreement to (the consent ledger).
export const termsAndConditions = {
  meta: {
    title: 'Allgemeine Geschäftsbedingungen',
    description:
      'Allgemeine Geschäftsbedingungen für die Nutzung der Plattform: Vertragsschluss, Leistungen, Widerrufsrecht, Laufzeit, Haftung.',
  },
  title: 'Allgemeine Geschäftsbedingungen',
  lastUpdated: consentVersions.terms_of_service,
  lastUpdatedLabel: 'Stand',
  binding: {
    notice: 'Diese deutsche Fassung ist verbindlich. Die englische Fassung dient nur der Information.',
    otherVersion: 'Englische Fassung lesen',
  },
  intro: [
    'Diese Allgemeinen Geschäftsbedingungen (AGB) gelten für alle Verträge über die Nutzung unserer Plattform für die Vorhersage der Evolution von Krankheitserregern (im Folgenden „Plattform“) zwischen uns (Anbieter, siehe Impressum) und der registrierten Organisation (im Folgenden „Kunde“).',
  ],
  sections: [
    {
      id: 'geltungsbereich',
      heading: '1. Geltungsbereich',
      paragraphs: [
        'Die Plattform richtet sich an Unternehmen, Forschungseinrichtungen, Behörden sowie Organisationen aus den Bereichen Pharma, Verteidigung und Biosicherheit. Abweichende Bedingungen des Kunden gelten nur, wenn wir ihnen ausdrücklich schriftlich zustimmen.',
        'Die Richtlinie zur zulässigen Nutzung und der Endbenutzer-Lizenzvertrag (EULA) sind Bestandteil dieser AGB.',
      ],
    },
    {
      id: 'vertragsschluss',
      heading: '2. Registrierung und Vertragsschluss',
      paragraphs: [
        'Der Kunde registriert seine Organisation über den Registrierungsassistenten und stimmt dabei diesen AGB, der Datenschutzerklärung und der Richtlinie zur zulässigen Nutzung zu. Jede Zustimmung wird mit Version und Zeitpunkt in unserem Einwilligungsprotokoll festgehalten.',
        'Der Vertrag kommt zustande, wenn wir die Identitätsprüfung der verantwortlichen Person bestätigt und den Zugang freigeschaltet haben. Wir können eine Registrierung ohne Angabe von Gründen ablehnen, insbesondere wenn die Identitätsprüfung scheitert oder Zweifel an der zulässigen Nutzung bestehen.',
      ],
    },
    {
      id: 'identitaetspruefung',
      heading: '3. Identitätsprüfung',
      paragraphs: [
        'Jede Person, die für den Kunden handelt, muss ihre Identität über unseren Dienstleister Persona prüfen lassen. Der Kunde stellt sicher, dass nur geprüfte Personen auf die Plattform zugreifen und Zugangsdaten nicht weitergegeben werden.',
      ],
    },
    {
      id: 'leistungen',
      heading: '4. Leistungen',
      paragraphs: [
        'Wir stellen dem Kunden die Plattform als Software-as-a-Service im vereinbarten Umfang bereit, insbesondere die Quantum Engine, die Modellierung von RNA-Strukturen, molekulare Simulationen, Vorhersagen zur Evolution von Krankheitserregern und den API-Zugang. Der genaue Umfang ergibt sich aus dem individuellen Angebot zum Organization Plan.',
        'Vorhersagen sind wissenschaftliche Modellaussagen mit angegebenen Konfidenzintervallen. Sie ersetzen keine eigene fachliche Bewertung durch den Kunden.',
        'Wir stellen eine Verfügbarkeit von 99,5 % im Monatsmittel bereit, ausgenommen angekündigte Wartungsfenster. Unser Support ist rund um die Uhr (24/7) erreichbar.',
      ],
    },
    {
      id: 'pflichten',
      heading: '5. Pflichten des Kunden',
      items: [
        'Der Kunde nutzt die Plattform ausschließlich nach der Richtlinie zur zulässigen Nutzung und unter Beachtung der Exportkontroll- und Sanktionsvorschriften.',
        'Der Kunde lädt nur Daten hoch, zu deren Nutzung er berechtigt ist. Personenbezogene Patientendaten dürfen nur pseudonymisiert hochgeladen werden.',
        'Der Kunde meldet uns unverzüglich jeden Verdacht auf Missbrauch seines Zugangs.',
      ],
    },
    {
      id: 'preise',
      heading: '6. Preise und Zahlung',
      paragraphs: [
        'Es gelten die im Angebot vereinbarten Preise zuzüglich gesetzlicher Umsatzsteuer. Rechnungen sind innerhalb von 30 Tagen nach Zugang ohne Abzug zahlbar. Bei Zahlungsverzug können wir den Zugang nach vorheriger Ankündigung sperren.',
      ],
    },
    {
      id: 'widerrufsrecht',
      heading: '7. Widerrufsrecht für digitale Dienstleistungen',
      paragraphs: [
        `Soweit der Kunde Verbraucher ist, hat er das Recht, binnen ${f.withdrawalDays} Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen. Die Widerrufsfrist beträgt ${f.withdrawalDays} Tage ab dem Tag des Vertragsschlusses. Zur Wahrung der Frist genügt die rechtzeitige Absendung einer eindeutigen Erklärung (z. B. per E-Mail) an die im Impressum genannte Adresse.`,
        'Hat der Kunde verlangt, dass die Dienstleistung während der Widerrufsfrist beginnt, zahlt er einen angemessenen Betrag für die bis zum Widerruf erbrachten Leistungen. Das Widerrufsrecht erlischt, wenn wir die Dienstleistung vollständig erbracht haben und der Kunde vorher ausdrücklich zugestimmt und seine Kenntnis vom Erlöschen bestätigt hat (§ 356 Abs. 4 BGB).',
        'Für Unternehmer im Sinne von § 14 BGB besteht kein gesetzliches Widerrufsrecht.',
      ],
    },
    {
      id: 'laufzeit',
      heading: '8. Laufzeit und Kündigung',
      paragraphs: [
        'Der Vertrag läuft zwölf Monate und verlängert sich jeweils um weitere zwölf Monate, wenn er nicht mit einer Frist von drei Monaten zum Ende der Laufzeit gekündigt wird. Das Recht zur außerordentlichen Kündigung aus wichtigem Grund bleibt unberührt; ein wichtiger Grund liegt für uns insbesondere bei einem Verstoß gegen die Richtlinie zur zulässigen Nutzung vor.',
        'Nach Vertragsende stellen wir dem Kunden seine Daten 30 Tage lang zum Export bereit und löschen sie danach, soweit keine Aufbewahrungspflichten bestehen.',
      ],
    },
    {
      id: 'rechte',
      heading: '9. Rechte an Ergebnissen und geistiges Eigentum',
      paragraphs: [
        'Die vom Kunden hochgeladenen Daten und die für ihn erzeugten Vorhersagen stehen dem Kunden zu. Alle Rechte an der Plattform, ihren Algorithmen und Modellen verbleiben bei uns. Eine Nutzung der Kundendaten zum Training unserer Modelle erfolgt nur mit ausdrücklicher Zustimmung des Kunden.',
      ],
    },
    {
      id: 'vertraulichkeit',
      heading: '10. Vertraulichkeit und Datenschutz',
      paragraphs: [
        'Beide Parteien behandeln vertrauliche Informationen der anderen Partei vertraulich. Soweit wir personenbezogene Daten im Auftrag des Kunden verarbeiten, schließen die Parteien einen Auftragsverarbeitungsvertrag nach Art. 28 DSGVO. Im Übrigen gilt unsere Datenschutzerklärung.',
      ],
    },
    {
      id: 'haftung',
      heading: '11. Haftung',
      paragraphs: [
        'Wir haften unbeschränkt für Vorsatz und grobe Fahrlässigkeit, für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit und nach dem Produkthaftungsgesetz. Bei leicht fahrlässiger Verletzung einer wesentlichen Vertragspflicht ist die Haftung auf den vertragstypischen, vorhersehbaren Schaden begrenzt. Im Übrigen ist die Haftung für leichte Fahrlässigkeit ausgeschlossen.',
      ],
    },
    {
      id: 'aufbewahrung',
      heading: '12. Aufbewahrung von Vertragsdaten',
      paragraphs: [
        `Vertragsdaten und die Nachweise der Zustimmung zu diesen AGB bewahren wir ${f.contractRetentionYears} Jahre auf, Finanzunterlagen etwa ${f.financialRecordsYears} Jahre und KYC-Daten ${f.kycRetentionYears} Jahre nach Ende der Geschäftsbeziehung, wie es die gesetzlichen Aufbewahrungspflichten verlangen.`,
      ],
    },
    {
      id: 'schlussbestimmungen',
      heading: '13. Schlussbestimmungen',
      paragraphs: [
        'Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Ist der Kunde Kaufmann, juristische Person des öffentlichen Rechts oder öffentlich-rechtliches Sondervermögen, ist Gerichtsstand unser Sitz. Sollte eine Bestimmung unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt.',
      ],
    },
  ],
} as const satisfies PolicyDocument satisfies Localized<typeof en.termsAndConditions>;
