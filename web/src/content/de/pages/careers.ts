import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/careers.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export type { Role } from '#web/content/pages/careers.ts';

export const careers = {
  meta: {
    title: 'Karriere',
    description:
      'Werden Sie Teil des Teams, das quantengestützte Prognosen der Erregerevolution und eine Konstellation aus mehr als 50 Nanosatelliten entwickelt.',
  } satisfies PageMeta,
  title: 'Karriere',
  lead: 'Helfen Sie mit, dass die Welt die nächste Pandemie kommen sieht. Wir sind ein kleines Team aus Biologen, Physikern und Ingenieuren.',
  rolesTitle: 'Offene Stellen',
  typeLabel: 'Art',
  locationLabel: 'Standort',
  requirementsTitle: 'Was Sie mitbringen',
  apply: 'Jetzt bewerben',
  /** The accessible name of an Apply Now link, which must say which role it is for. */
  applyFor: (title: string) => `Jetzt bewerben als ${title}`,
  applicationSubject: (title: string) => `Bewerbung: ${title}`,
  applicationBody: (title: string) =>
    `Guten Tag,\n\nhiermit bewerbe ich mich um die Stelle „${title}“.\n\nMeinen Lebenslauf finden Sie im Anhang.\n\nMit freundlichen Grüßen\n`,
  general: {
    title: 'Noch keine passende Stelle?',
    body: 'Wir freuen uns immer, von außergewöhnlichen Menschen zu hören. Erzählen Sie uns, woran Sie arbeiten möchten.',
    action: 'Initiativbewerbung',
    subject: 'Initiativbewerbung',
    mailBody:
      'Guten Tag,\n\nich möchte Ihr Team verstärken. Daran würde ich gern arbeiten:\n\n\nMit freundlichen Grüßen\n',
  },
  roles: [
    {
      id: 'quantum-algorithm-scientist',
      title: 'Wissenschaftler für Quantenalgorithmen (m/w/d)',
      type: 'Vollzeit',
      location: 'Berlin, Deutschland (hybrid)',
      description:
        'Sie entwerfen die hybriden quantenklassischen Algorithmen im Kern der Quantum Engine und messen ihre Leistung, vom Sampling von Fitnesslandschaften bis zu variationellen Modellen der RNA-Faltung.',
      requirements: [
        'Promotion in Physik, Informatik oder einem verwandten Fach',
        'Praktische Erfahrung mit variationellen Quantenalgorithmen oder Quanten-Annealing',
        'Sicher in Python; Erfahrung mit Qiskit, Cirq oder PennyLane',
        'Interesse an computergestützter Biologie',
      ],
    },
    {
      id: 'computational-virologist',
      title: 'Virologe für computergestützte Analysen (m/w/d)',
      type: 'Vollzeit',
      location: 'Ortsunabhängig (EU-Zeitzonen)',
      description:
        'Sie machen aus Daten der genomischen Überwachung validierte Prognosen: Sie kuratieren Benchmarks, prüfen Vorhersagen an realen Abstammungslinien und arbeiten mit Kunden an den Erregern, die ihnen Sorge bereiten.',
      requirements: [
        'Promotion oder gleichwertige Erfahrung in Virologie, Evolutionsbiologie oder Bioinformatik',
        'Erfahrung mit Werkzeugen der Phylogenetik (Nextstrain, IQ-TREE, BEAST)',
        'Fundierte Statistikkenntnisse und reproduzierbare Forschungspraxis',
        'Klare Sprache für Fachleute wie für Laien',
      ],
    },
    {
      id: 'satellite-systems-engineer',
      title: 'Systemingenieur Satelliten (m/w/d)',
      type: 'Vollzeit',
      location: 'München, Deutschland (vor Ort)',
      description:
        'Sie gestalten die Nanosatelliten-Konstellation unserer Satellitenvision: Datenverbindungen der Nutzlast, die Integration des Bodensegments und den sicheren Weg von der Feldstation zur Prognose.',
      requirements: [
        'Studium der Luft- und Raumfahrttechnik, Elektrotechnik oder Systemtechnik',
        'Erfahrung mit CubeSat- oder Kleinsatellitenmissionen',
        'Kenntnisse in Weltraumkommunikation (S-Band, X-Band) und CCSDS-Protokollen',
        'Eignung für eine Sicherheitsüberprüfung ist von Vorteil',
      ],
    },
  ],
} as const satisfies Localized<typeof en.careers>;
