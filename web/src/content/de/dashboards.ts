import { serviceRequestAnswerBusinessDays } from '#contracts/service-actions.ts';
import type * as en from '#web/content/dashboards.ts';
import type { SegmentDashboardCopy } from '#web/content/dashboards.ts';
import type { Localized } from '#web/content/localized.ts';

// Copy of the dashboards: the setup dashboard (/dashboard) and the two segment dashboards
// (/commercial-dashboard, /defense-dashboard). The segment capabilities are switched on per
// organization by its account manager: each quick action sends operations a service request, which
// the dashboard lists with its state (ADR 0088; the actions' titles are the contract's).

export type { Capability, SegmentDashboardCopy } from '#web/content/dashboards.ts';

/** "innerhalb von 2 Werktagen" (dative plural), "innerhalb von einem Werktag". */
const within = (days: number) =>
  days === 1 ? 'innerhalb von einem Werktag' : `innerhalb von ${days} Werktagen`;
const withinBusinessDays = within(serviceRequestAnswerBusinessDays);

const sharedSegment = {
  capabilitiesHeading: 'Funktionen',
  quickActionsHeading: 'Schnellaktionen',
  dialog: {
    body: `Ihre Kundenbetreuung schaltet diese Funktion für Ihre Organisation frei. Senden Sie eine Anfrage, und wir antworten ${withinBusinessDays}; alle in Ihrer Organisation sehen sie auf diesem Dashboard.`,
    send: 'Anfrage senden',
    sending: 'Wird gesendet …',
    sent: 'Anfrage gesendet.',
    alreadyOpen: 'Ihre Organisation hat dies bereits angefragt.',
    failed: 'Ihre Anfrage konnte nicht gesendet werden. Bitte versuchen Sie es gleich noch einmal.',
    // An account without an organization (registered before organizations) cannot file one.
    // Followed by the link (`contact`) and a full stop.
    noOrganization:
      'Diese Funktion steht nach dem Onboarding mit Ihrer Kundenbetreuung zur Verfügung. Um sie einzuplanen,',
    contact: 'kontaktieren Sie uns',
    close: 'Schließen',
  },
  requests: {
    heading: 'Anfragen Ihrer Organisation',
    empty: 'Noch keine Anfragen: Mit einer Schnellaktion senden Sie unserem Team eine.',
    failed:
      'Die Anfragen Ihrer Organisation konnten nicht geladen werden. Laden Sie die Seite neu, um es erneut zu versuchen.',
    requested: 'Angefragt',
    received: 'Eingegangen',
    // Followed by the date: "… spätestens am 1. Dezember 2026."
    answerWithin: `wir antworten ${withinBusinessDays}, spätestens am`,
  },
  links: {
    label: 'Mehr',
    account: 'Ihr Konto',
  },
} as const;

export const dashboardsCopy = {
  setup: {
    title: 'Dashboard',
    welcome: (name: string) => (name.trim() ? `Willkommen, ${name.trim()}` : 'Willkommen'),
    lead: 'Der Stand Ihrer Organisation im Onboarding und Ihr Konto auf einen Blick.',
    identity: {
      approved: {
        heading: 'Identitätsprüfung abgeschlossen',
        body: 'Ihre Identität ist bestätigt. Ihre Organisation hat vollen Zugriff auf ihr Dashboard.',
      },
      notStarted: {
        heading: 'Identitätsprüfung erforderlich',
        body: 'Bevor Ihre Organisation die Plattform nutzen kann, prüfen wir die Identität der für sie verantwortlichen Person. Das dauert etwa fünf Minuten: Sie erteilen Ihre Einwilligung, dann gleicht unser Prüfpartner Persona ein Foto Ihres amtlichen Ausweises mit einem Selfie ab.',
        consent: 'Einwilligung zur Prüfung erteilen',
      },
      consentGiven: {
        heading: 'Identitätsprüfung erforderlich',
        body: 'Ihre Einwilligung ist erfasst. Der nächste Schritt ist die Prüfung selbst: Unser Prüfpartner Persona gleicht ein Foto Ihres amtlichen Ausweises mit einem Selfie ab. Das dauert etwa fünf Minuten.',
        verify: 'Weiter zur Prüfung',
      },
      pending: {
        heading: 'Identitätsprüfung in Bearbeitung',
        body: 'Ihre Prüfung wurde eingereicht und wird bearbeitet. Wir benachrichtigen Sie per E-Mail, sobald darüber entschieden ist.',
        status: 'Prüfungsstatus anzeigen',
      },
      rejected: {
        heading: 'Identitätsprüfung nicht freigegeben',
        body: 'Ihre Identitätsprüfung wurde nicht freigegeben. Unser Team kann Ihnen die Gründe nennen und erklären, wie Ihre Organisation weitermachen kann.',
        status: 'Prüfungsstatus anzeigen',
      },
    },
    account: {
      heading: 'Konto',
      email: 'E-Mail',
      emailVerified: 'E-Mail bestätigt',
      yes: 'Ja',
      no: 'Nein',
      organizationType: 'Art der Organisation',
      verification: 'Prüfungsstatus',
      manage: 'Ihr Konto',
    },
    openSegment: {
      commercial: 'Kommerzielles Dashboard öffnen',
      defense: 'Dashboard Verteidigung und Behörden öffnen',
    },
  },
  segment: sharedSegment,
  commercial: {
    // The seed's "Commercial Space Operations" (ADR 0086), translated.
    title: 'Kommerzieller Raumfahrtbetrieb',
    intro:
      'Ihr Arbeitsbereich für Prognosen zur Evolution von Krankheitserregern. Jede Funktion wird für Ihre Organisation beim Onboarding mit Ihrer Kundenbetreuung freigeschaltet.',
    capabilities: [
      {
        name: 'Missionsplanung',
        description:
          'Planen Sie Prognosemissionen: Wählen Sie die zu modellierenden Erreger, Regionen und Zeithorizonte, und planen Sie Rechenläufe auf der Quantencomputing-Plattform ein.',
      },
      {
        name: 'Marktanalyse',
        description:
          'Machen Sie aus Evolutionsprognosen Marktsignale: die erwartete Nachfrage nach Impfstoffen, Diagnostika und Therapeutika, nach Region und Saison.',
      },
      {
        name: 'Flottenverwaltung',
        description:
          'Verfolgen Sie die Nanosatelliten-Konstellation, die künftig die Prognosen speist: Abdeckung, Zustand und Aufgaben jedes Satelliten, sobald er in Betrieb geht.',
      },
      {
        name: 'Weltweiter Betrieb',
        description:
          'Sehen Sie Ihre Programme über Standorte und Partner hinweg in einer Ansicht, mit Hinweisen, sobald sich eine Prognose ändert, die sie betrifft.',
      },
    ],
    quickActions: ['mission-analysis', 'fleet-status', 'market-report'],
  } satisfies SegmentDashboardCopy,
  defense: {
    title: 'Dashboard Verteidigung und Behörden',
    intro:
      'Ihr Arbeitsbereich für Prognosen zu Biosicherheit und Abwehr biologischer Gefahren. Jede Funktion wird für Ihre Organisation beim Onboarding mit Ihrer Kundenbetreuung freigeschaltet.',
    banner: {
      title: 'Zugang zu Verschlusssachen',
      body: 'Dieser Arbeitsbereich steht nur geprüften Organisationen aus Verteidigung und Behörden offen. Behandeln Sie alles, was Sie hier sehen, nach den Sicherheitsvorschriften Ihrer Organisation.',
    },
    capabilities: [
      {
        name: 'Bedrohungsbewertung',
        description:
          'Bewerten Sie neu auftretende biologische Bedrohungen mit Prognosen zur Evolution von Krankheitserregern, geordnet nach Wahrscheinlichkeit und Auswirkung auf Ihren Verantwortungsbereich.',
      },
      {
        name: 'Überwachungssysteme',
        description:
          'Führen Sie Daten der genomischen Überwachung und die Abdeckung durch Satellitenbeobachtung zusammen, um Ausbrüche frühzeitig zu erkennen.',
      },
      {
        name: 'Strategische Ressourcen',
        description:
          'Wägen Sie Vorräte an Gegenmaßnahmen, Laborkapazitäten und Ressourcen der Konstellation gegen Prognoseszenarien ab.',
      },
      {
        name: 'Sichere Kommunikation',
        description:
          'Teilen Sie Bewertungen mit sicherheitsüberprüften Partnern über Kanäle, die von kommerziellen Organisationen getrennt sind.',
      },
    ],
    quickActions: ['threat-scan', 'intel-reports', 'strategic-planning'],
  } satisfies SegmentDashboardCopy,
} as const satisfies Localized<typeof en.dashboardsCopy>;
