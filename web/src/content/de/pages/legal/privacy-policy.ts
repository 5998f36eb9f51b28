import { consentVersions } from '#contracts/consent-documents.ts';
import type { Localized } from '#web/content/localized.ts';
import { policyFacts as f } from '#web/content/pages/legal/facts.ts';
import type * as en from '#web/content/pages/legal/privacy-policy.ts';
import { retentionSentences } from '#web/content/pages/legal/retention.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

// The binding version, like the German terms and acceptable-use policy: the company is German and
// its customers contract under German law (the English text is for information). The version is
// the one the registration wizard records consent to.
export const privacyPolicy = {
  meta: {
    title: 'Datenschutzerklärung',
    description:
      'Wie wir personenbezogene Daten verarbeiten: Zwecke, Rechtsgrundlagen, Empfänger, Speicherdauer und Ihre Rechte nach der DSGVO.',
  },
  title: 'Datenschutzerklärung',
  lastUpdated: consentVersions.privacy_policy,
  lastUpdatedLabel: 'Stand',
  binding: {
    notice: 'Diese deutsche Fassung ist verbindlich. Die englische Fassung dient nur der Information.',
    otherVersion: 'Englische Fassung lesen',
  },
  intro: [
    'Diese Datenschutzerklärung informiert Sie nach Art. 13 und 14 der Datenschutz-Grundverordnung (DSGVO) darüber, welche personenbezogenen Daten wir verarbeiten, wenn Sie unsere Website besuchen, sich auf die Warteliste setzen, uns schreiben, Ihre Organisation registrieren und Ihre Identität prüfen lassen.',
    `Unsere Plattform und alle Daten, die wir selbst speichern, liegen in Rechenzentren von Amazon Web Services in der Region ${f.awsRegion} (${f.awsRegionName}).`,
  ],
  sections: [
    {
      id: 'verantwortlicher',
      heading: '1. Verantwortlicher',
      slot: 'company-contact',
      paragraphs: [
        'Verantwortlich für die Verarbeitung im Sinne von Art. 4 Nr. 7 DSGVO ist das folgende Unternehmen (weitere Angaben im Impressum):',
      ],
      after: [
        'Für alle Fragen zum Datenschutz und zur Ausübung Ihrer Rechte erreichen Sie uns unter der oben genannten E-Mail-Adresse. Unseren Datenschutzbeauftragten erreichen Sie unter derselben Anschrift mit dem Zusatz „Datenschutzbeauftragter“.',
      ],
    },
    {
      id: 'zwecke-und-rechtsgrundlagen',
      heading: '2. Zwecke und Rechtsgrundlagen der Verarbeitung',
      subsections: [
        {
          id: 'website',
          heading: '2.1 Besuch der Website',
          paragraphs: [
            'Beim Aufruf der Website verarbeiten unsere Server und unser Content-Delivery-Netzwerk (Amazon CloudFront) technisch notwendige Daten: IP-Adresse, Datum und Uhrzeit, aufgerufene Adresse, übertragene Datenmenge, Referrer und Browserkennung. Das ist erforderlich, um die Website auszuliefern und Angriffe zu erkennen und abzuwehren.',
            `Rechtsgrundlage ist unser berechtigtes Interesse an einem sicheren und stabilen Betrieb (Art. 6 Abs. 1 lit. f DSGVO). Die Protokolle (Website-Logs) werden nach ${f.websiteLogRetentionDays} Tagen gelöscht.`,
          ],
        },
        {
          id: 'warteliste',
          heading: '2.2 Warteliste',
          paragraphs: [
            'Wenn Sie sich auf die Warteliste setzen, speichern wir Ihre E-Mail-Adresse, um Sie über den Start des Onboardings zu informieren. Rechtsgrundlage ist Ihre Einwilligung (Art. 6 Abs. 1 lit. a DSGVO), die Sie jederzeit mit Wirkung für die Zukunft widerrufen können.',
          ],
        },
        {
          id: 'anfragen',
          heading: '2.3 Kontakt- und Investorenanfragen',
          paragraphs: [
            'Bei Anfragen über das Kontakt- oder das Investorenformular verarbeiten wir Name, geschäftliche E-Mail-Adresse, Organisation und Ihre Nachricht, um die Anfrage zu beantworten. Rechtsgrundlage sind vorvertragliche Maßnahmen (Art. 6 Abs. 1 lit. b DSGVO) bzw. unser berechtigtes Interesse an der Beantwortung geschäftlicher Anfragen (Art. 6 Abs. 1 lit. f DSGVO).',
          ],
        },
        {
          id: 'registrierung',
          heading: '2.4 Registrierung und Kundenkonto',
          paragraphs: [
            'Bei der Registrierung Ihrer Organisation verarbeiten wir Name, Funktion, geschäftliche E-Mail-Adresse und Telefonnummer der verantwortlichen Person sowie Name, Website und Art der Organisation. Wir legen damit ein Benutzerkonto bei unserem Anmeldedienst Auth0 an und senden Ihnen die Anmeldeanweisungen per E-Mail. Rechtsgrundlage ist die Durchführung des Vertrags und vorvertraglicher Maßnahmen (Art. 6 Abs. 1 lit. b DSGVO).',
            'Die Anmeldung erfolgt über Auth0 mit Autorisierungscode und PKCE. Anmeldetoken werden im lokalen Speicher Ihres Browsers gehalten, damit Sie angemeldet bleiben; sie sind für die Bereitstellung des Dienstes unbedingt erforderlich (§ 25 Abs. 2 Nr. 2 TDDDG).',
          ],
        },
        {
          id: 'identitaetspruefung',
          heading: '2.5 Identitätsprüfung (KYC) mit Persona',
          paragraphs: [
            'Weil unsere Plattform sicherheitsrelevante Forschung unterstützt, prüfen wir die Identität jeder Person, die für eine Organisation handelt. Die Prüfung führt unser Dienstleister Persona durch: Sie fotografieren einen amtlichen Ausweis und nehmen ein Selfie auf; Persona vergleicht das Gesicht auf dem Selfie mit dem Ausweisfoto (biometrischer Abgleich) und prüft die Echtheit des Dokuments.',
            'Rechtsgrundlage für die Identitätsprüfung ist Ihre Einwilligung (Art. 6 Abs. 1 lit. a DSGVO) sowie unser berechtigtes Interesse, Missbrauch der Plattform zu verhindern (Art. 6 Abs. 1 lit. f DSGVO). Biometrische Daten verarbeiten wir ausschließlich auf Grundlage Ihrer ausdrücklichen Einwilligung (Art. 9 Abs. 2 lit. a DSGVO), die Sie vor Beginn der Prüfung gesondert erteilen. Ohne diese Einwilligung ist eine Freischaltung nicht möglich; Sie können sie jederzeit widerrufen.',
            'Wir speichern das Ergebnis der Prüfung (ausstehend, bestätigt oder abgelehnt), die Kennung des Prüfvorgangs und den Verlauf der Entscheidungen. Ausweisbilder, Selfie und ausgelesene Daten bleiben bei Persona und werden dort nach Abschluss gelöscht bzw. auf unsere Anweisung geschwärzt.',
          ],
        },
        {
          id: 'einwilligungsnachweis',
          heading: '2.6 Nachweis Ihrer Einwilligungen',
          paragraphs: [
            'Jede Einwilligung und jede Zustimmung zu unseren Bedingungen (AGB, Datenschutzerklärung, Richtlinie zur zulässigen Nutzung, Identitätsprüfung) halten wir in einem unveränderlichen Einwilligungsprotokoll fest: wer (über eine pseudonyme Kennung), was (Version und Prüfsumme des angezeigten Textes), wann, wie (Dialog oder Registrierungsassistent), Sprache, gekürzte IP-Adresse und Browserkennung. Ein Widerruf wird als neuer Eintrag erfasst; bestehende Einträge werden nie geändert.',
            'Rechtsgrundlage ist unsere Pflicht, eine Einwilligung nachweisen zu können (Art. 7 Abs. 1 i. V. m. Art. 6 Abs. 1 lit. c DSGVO).',
          ],
        },
        {
          id: 'e-mail',
          heading: '2.7 E-Mail-Versand',
          paragraphs: [
            'Transaktionale E-Mails (Anmeldeanweisungen, Bestätigung der E-Mail-Adresse, Ergebnis der Identitätsprüfung, Bestätigung von Löschanfragen) versenden wir über Amazon Simple Email Service (SES) in der Region eu-central-1. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO.',
          ],
        },
        {
          id: 'cookies',
          heading: '2.8 Cookies und lokaler Speicher',
          paragraphs: [
            'Technisch notwendige Einträge im lokalen Speicher (Farbschema, Ihre Cookie-Auswahl, Anmeldesitzung) setzen wir ohne Einwilligung. Analyse-, Marketing- und Personalisierungsfunktionen nutzen wir nur mit Ihrer Einwilligung (§ 25 Abs. 1 TDDDG, Art. 6 Abs. 1 lit. a DSGVO). Einzelheiten enthält unsere Cookie-Richtlinie.',
          ],
        },
      ],
    },
    {
      id: 'empfaenger',
      heading: '3. Empfänger und Auftragsverarbeiter',
      paragraphs: [
        'Wir geben personenbezogene Daten nur weiter, soweit es für die genannten Zwecke erforderlich ist. Unsere Dienstleister verarbeiten die Daten als Auftragsverarbeiter nach Art. 28 DSGVO auf unsere Weisung:',
      ],
      items: [
        `Amazon Web Services EMEA SARL (Luxemburg): Hosting, Datenbanken, Content-Delivery-Netzwerk und E-Mail-Versand (Amazon SES), Region ${f.awsRegion} (${f.awsRegionName}).`,
        'Okta, Inc. bzw. Auth0 (Plattform von Okta): Benutzerkonten und Anmeldung, Datenhaltung in der EU.',
        'Persona Identities, Inc. (San Francisco, USA): Identitätsprüfung einschließlich biometrischem Abgleich.',
      ],
      after: [
        'Behörden erhalten Daten nur, wenn wir gesetzlich dazu verpflichtet sind (Art. 6 Abs. 1 lit. c DSGVO).',
      ],
    },
    {
      id: 'drittlaender',
      heading: '4. Übermittlung in Drittländer',
      paragraphs: [
        'Persona und Okta haben ihren Sitz in den USA. Eine Übermittlung stützen wir auf den Angemessenheitsbeschluss der EU-Kommission zum EU-US Data Privacy Framework, soweit der Empfänger zertifiziert ist, und im Übrigen auf die Standardvertragsklauseln der EU-Kommission (Art. 46 Abs. 2 lit. c DSGVO) mit ergänzenden Maßnahmen. Eine Kopie der Garantien erhalten Sie auf Anfrage.',
      ],
    },
    {
      id: 'speicherdauer',
      heading: '5. Speicherdauer',
      paragraphs: [
        'Wir speichern personenbezogene Daten nur so lange, wie es für den Zweck erforderlich ist oder gesetzliche Aufbewahrungspflichten es verlangen:',
      ],
      // Generated from the retention table (lambdas/contracts/retention.ts, ADR 0077).
      items: retentionSentences('de'),
      after: [
        'Nach Ablauf der Fristen löschen wir die Daten. Daten, die wir nur wegen einer Aufbewahrungspflicht noch speichern, sperren wir für jede andere Verwendung.',
      ],
    },
    {
      id: 'rechte',
      heading: '6. Rechte der Betroffenen',
      paragraphs: ['Ihnen stehen nach der DSGVO folgende Rechte zu:'],
      items: [
        'Auskunft über die zu Ihnen gespeicherten Daten (Art. 15 DSGVO)',
        'Berichtigung unrichtiger Daten (Art. 16 DSGVO)',
        'Löschung (Art. 17 DSGVO) und Einschränkung der Verarbeitung (Art. 18 DSGVO)',
        'Datenübertragbarkeit (Art. 20 DSGVO)',
        'Widerspruch gegen Verarbeitungen auf Grundlage berechtigter Interessen (Art. 21 DSGVO)',
        'Widerruf einer Einwilligung mit Wirkung für die Zukunft (Art. 7 Abs. 3 DSGVO)',
        'Beschwerde bei einer Datenschutz-Aufsichtsbehörde (Art. 77 DSGVO)',
      ],
      after: [
        `Löschanfragen können Sie jederzeit über unsere Seite „Datenlöschung“ stellen. Wir bearbeiten sie innerhalb von ${f.deletionDeadlineDays} Tagen (Art. 12 Abs. 3 DSGVO) und bestätigen den Eingang per E-Mail. Daten, die wir wegen einer gesetzlichen Pflicht aufbewahren müssen, löschen wir nach Ablauf der Frist; bis dahin sind sie gesperrt.`,
      ],
    },
    {
      id: 'automatisierte-entscheidungen',
      heading: '7. Keine ausschließlich automatisierte Entscheidung',
      paragraphs: [
        'Das Ergebnis der Identitätsprüfung schlägt Persona vor; in Zweifelsfällen und auf Ihren Wunsch prüft ein Mitarbeiter unseres Teams die Entscheidung. Eine ausschließlich automatisierte Entscheidung im Sinne von Art. 22 DSGVO findet nicht statt.',
      ],
    },
    {
      id: 'sicherheit',
      heading: '8. Datensicherheit',
      paragraphs: [
        'Alle Verbindungen sind mit TLS verschlüsselt, gespeicherte Daten sind verschlüsselt. Zugriffe sind auf das Notwendige beschränkt und werden protokolliert. Unsere Kontrollen werden jährlich nach SOC 2 geprüft.',
      ],
    },
    {
      id: 'aenderungen',
      heading: '9. Änderungen dieser Datenschutzerklärung',
      paragraphs: [
        'Wir passen diese Datenschutzerklärung an, wenn sich unsere Verarbeitung ändert. Jede Fassung trägt ein Datum; bei wesentlichen Änderungen bitten wir registrierte Nutzer erneut um Zustimmung.',
      ],
    },
  ],
} as const satisfies PolicyDocument satisfies Localized<typeof en.privacyPolicy>;
