import { consentVersions } from '#contracts/consent-documents.ts';
import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/legal/acceptable-use-policy.ts';
import type { PolicyDocument } from '#web/content/pages/types.ts';

// The registration wizard records agreement to this text as the "non-harmful use" purpose.
export const acceptableUsePolicy = {
  meta: {
    title: 'Richtlinie zur zulässigen Nutzung',
    description:
      'Wofür die Plattform genutzt werden darf und wofür nie: Schutz vor Krankheitserregern, keine Erzeugung oder Verstärkung von Erregern.',
  },
  title: 'Richtlinie zur zulässigen Nutzung',
  lastUpdated: consentVersions.non_harmful_use,
  lastUpdatedLabel: 'Stand',
  binding: {
    notice: 'Diese deutsche Fassung ist verbindlich. Die englische Fassung dient nur der Information.',
    otherVersion: 'Englische Fassung lesen',
  },
  intro: [
    'Unsere Plattform sagt voraus, wie sich Krankheitserreger verändern. Dieses Wissen dient dem Schutz von Menschen, Tieren und Pflanzen. Diese Richtlinie legt fest, wofür die Plattform genutzt werden darf und wofür nie. Sie ist Bestandteil unserer Allgemeinen Geschäftsbedingungen.',
  ],
  sections: [
    {
      id: 'zweck',
      heading: '1. Zweck der Plattform',
      paragraphs: [
        'Die Plattform unterstützt die Entwicklung von Impfstoffen, Therapeutika und Diagnostika, die Überwachung der öffentlichen Gesundheit, die Frühwarnung vor biologischen Bedrohungen und die Forschung zu diesen Zwecken.',
      ],
    },
    {
      id: 'zulaessige-nutzung',
      heading: '2. Zulässige Nutzung',
      items: [
        'Vorhersage von Varianten zur Vorbereitung von Impfstoffen, Medikamenten und Tests',
        'Genomische Überwachung und Bewertung neu auftretender Varianten',
        'Verteidigungs- und Biosicherheitsanalysen zum Schutz vor biologischen Bedrohungen',
        'Akademische Forschung im Rahmen anerkannter ethischer Standards',
      ],
    },
    {
      id: 'verbotene-nutzung',
      heading: '3. Verbotene Nutzung',
      paragraphs: ['Die Plattform darf niemals genutzt werden, um:'],
      items: [
        'Krankheitserreger zu erzeugen, zu verändern oder ihre Übertragbarkeit, Virulenz oder Immunflucht zu verstärken („Gain of Function“ mit dem Ziel der Schädigung)',
        'biologische Waffen zu entwickeln, herzustellen oder zu verbreiten, entgegen dem Biowaffenübereinkommen',
        'Schutzmaßnahmen wie Impfstoffe, Diagnostika oder Überwachungssysteme gezielt zu umgehen',
        'Ergebnisse an Personen oder Organisationen weiterzugeben, die nicht geprüft sind oder Sanktionen unterliegen',
        'die Sicherheit der Plattform anzugreifen, Zugangsbeschränkungen zu umgehen oder Zugänge zu teilen',
      ],
    },
    {
      id: 'exportkontrolle',
      heading: '4. Exportkontrolle und Sanktionen',
      paragraphs: [
        'Der Kunde beachtet die Exportkontrollvorschriften der Europäischen Union (insbesondere die Dual-Use-Verordnung (EU) 2021/821), Deutschlands und anderer anwendbarer Rechtsordnungen sowie alle Sanktionslisten. Der Zugriff aus Ländern, gegen die ein Embargo besteht, ist untersagt.',
      ],
    },
    {
      id: 'ueberwachung',
      heading: '5. Prüfung und Überwachung',
      paragraphs: [
        'Jede Organisation und jede für sie handelnde Person wird vor dem Zugang geprüft. Wir dürfen die Nutzung der Plattform auf Muster untersuchen, die auf eine verbotene Nutzung hindeuten, und dafür Anfragen und Ergebnisse protokollieren.',
      ],
    },
    {
      id: 'meldung',
      heading: '6. Meldung von Verstößen',
      paragraphs: [
        'Wer einen Verstoß gegen diese Richtlinie vermutet, meldet ihn bitte über unser Kontaktformular oder an die im Impressum genannte Adresse. Meldungen behandeln wir vertraulich.',
      ],
    },
    {
      id: 'durchsetzung',
      heading: '7. Durchsetzung',
      paragraphs: [
        'Bei einem Verstoß können wir den Zugang sofort sperren und den Vertrag außerordentlich kündigen. Bei Anhaltspunkten für eine Straftat informieren wir die zuständigen Behörden.',
      ],
    },
    {
      id: 'aenderungen',
      heading: '8. Änderungen',
      paragraphs: [
        'Wir passen diese Richtlinie an neue Risiken und Rechtsvorschriften an. Bei wesentlichen Änderungen bitten wir registrierte Nutzer erneut um Zustimmung.',
      ],
    },
  ],
} as const satisfies PolicyDocument satisfies Localized<typeof en.acceptableUsePolicy>;
