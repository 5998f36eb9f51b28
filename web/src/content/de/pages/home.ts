import type { Localized } from '#web/content/localized.ts';
import type * as en from '#web/content/pages/home.ts';
import type { PageMeta } from '#web/content/pages/types.ts';

export type { HomeBand } from '#web/content/pages/home.ts';

export const home = {
  meta: {
    title: 'Genomische Prognose der Erregerevolution',
    description:
      'Prognostizieren Sie die Evolution von Krankheitserregern mit einer Quantencomputing-Engine, validiert mit 98,7 % Genauigkeit auf zwei öffentlichen Benchmarks. Für Unternehmen, Pharma, Verteidigung und Biosicherheit.',
  } satisfies PageMeta,
  hero: {
    eyebrow: 'Prognosen zur Erregerevolution',
    title: 'Sehen Sie, wohin sich Erreger als Nächstes entwickeln',
    lead: 'Genomische Prognosen zur Evolution von Krankheitserregern, angetrieben von einer Quantencomputing-Engine und bald von einer Konstellation aus mehr als 50 Nanosatelliten.',
    /** Registration, the product's way in, is the hero's first action (ADR 0086). */
    register: 'Organisation registrieren',
    primaryAction: 'Beta-Zugang anfordern',
    secondaryAction: 'Das Framework entdecken',
  },
  /** The bands below the hero (`HomeBand`), in page order; the page shades every other one. */
  sections: [
    {
      name: 'framework',
      title: 'Unser Framework',
      lead: 'Die Quantum Engine macht aus Daten der genomischen Überwachung Prognosen darüber, welche Mutationen ein Erreger voraussichtlich als Nächstes erwirbt und was sie verändern.',
      cards: [
        {
          title: 'Die Quantum Engine',
          body: 'Hybride quantenklassische Algorithmen erkunden die Fitnesslandschaft eines Genoms weit schneller als klassisches Sampling und bewerten Millionen möglicher Mutationspfade pro Lauf.',
        },
        {
          title: 'Modellierung von RNA-Strukturen',
          body: 'Jeder RNA-Strukturtyp, von Sekundärstrukturen über Pseudoknoten bis zu Tertiärkontakten, wird modelliert, damit vorhergesagte Mutationen danach beurteilt werden, wie sie das Molekül verändern, nicht nur seine Sequenz.',
        },
        {
          title: 'Molekulare Simulation',
          body: 'Mögliche Varianten werden gegen Wirtsrezeptoren und bekannte Antikörper simuliert, um Übertragbarkeit und Immunflucht abzuschätzen, bevor sie in der Natur auftreten.',
        },
        {
          title: 'Prädiktive Evolutionsanalyse',
          body: 'Prognosen enthalten Konfidenzintervalle, Stammbäume der Abstammungslinien und die Belege hinter jeder Vorhersage, bereit zur Prüfung durch Ihre eigenen Fachleute.',
        },
      ],
    },
    {
      name: 'vision',
      title: 'Die Vision',
      lead: 'Eine Konstellation aus mehr als 50 Nanosatelliten wird genomische Sequenzdaten von abgelegenen Feldstationen innerhalb von Minuten zur Quantum Engine übertragen, wo auch immer ein Ausbruch beginnt.',
      cards: [
        {
          title: 'Mehr als 50 Nanosatelliten',
          body: 'Eine Konstellation in niedriger Erdumlaufbahn sorgt für durchgehende Abdeckung, sodass auch Feldlabore ohne verlässliche Internetverbindung neue Sequenzen melden können.',
        },
        {
          title: 'Von der Probe zur Prognose in Stunden',
          body: 'Sequenzen erreichen die Engine noch am Tag der Probenahme, und Prognosen werden aktualisiert, sobald eine neue Variante beobachtet wird.',
        },
        {
          title: 'Für souveränen Betrieb gebaut',
          body: 'Verteidigungs- und Regierungsorganisationen können ihre Daten in ihrem eigenen Hoheitsgebiet und Bodensegment behalten.',
        },
      ],
    },
    {
      name: 'claims',
      title: 'Bewährt, wo es darauf ankommt',
      claims: [
        {
          figure: '98,7 %',
          label: 'Genauigkeit',
          body: 'auf dem Variant Emergence Forecasting Benchmark (VEF-2024) und der Retrospective Lineage Prediction Suite (RLPS v3).',
        },
        {
          figure: 'SOC 2',
          label: 'Compliance',
          body: 'Type-II-Kontrollen für Sicherheit, Verfügbarkeit und Vertraulichkeit, jährlich geprüft.',
        },
        {
          figure: '24/7',
          label: 'Support',
          body: 'Wissenschaftler und Ingenieure rund um die Uhr erreichbar, für jede Organisation auf der Plattform.',
        },
      ],
      note: 'Die Genauigkeit ist der Anteil der Varianten, die sechs Monate vor Erreichen einer Prävalenz von 1 % korrekt prognostiziert wurden, gemessen auf den zurückgehaltenen Testdatensätzen beider Benchmarks.',
    },
    {
      name: 'account',
      title: 'Ein Konto für Ihre Organisation',
      lead: 'Registrierte Organisationen erhalten einen geprüften Arbeitsbereich auf der Plattform.',
      items: [
        'Zugang zur Quantum Engine und zu allen RNA-Strukturtypen',
        'Unbegrenzte Uploads genomischer Daten und API-Zugang',
        'Ein Dashboard für Ihr Segment: kommerziell oder Verteidigung und Behörden',
        'Teammitglieder mit geprüfter Identität, damit nur Ihre Leute Ihre Daten sehen',
      ],
      actions: [
        { label: 'Organisation registrieren', to: 'register' },
        { label: 'Preise ansehen', to: 'pricing' },
      ],
    },
    {
      name: 'waitlist',
      title: 'Auf die Warteliste setzen',
      intro: 'Erfahren Sie zuerst, wann das Onboarding für Ihre Organisation beginnt.',
      form: 'waitlist',
    },
  ],
} as const satisfies Localized<typeof en.home>;
