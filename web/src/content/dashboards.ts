import { type ServiceAction, serviceRequestAnswerBusinessDays } from '#contracts/service-actions.ts';

// Copy of the dashboards: the setup dashboard (/dashboard) and the two segment dashboards
// (/commercial-dashboard, /defense-dashboard). The segment capabilities are switched on per
// organization by its account manager: each quick action sends operations a service request, which
// the dashboard lists with its state (ADR 0088; the actions' titles are the contract's).

export interface Capability {
  name: string;
  description: string;
}

export interface SegmentDashboardCopy {
  title: string;
  intro: string;
  banner?: { title: string; body: string };
  capabilities: readonly Capability[];
  /** The quick actions' ids (`serviceActions` in the contract names them). */
  quickActions: readonly ServiceAction[];
}

const sharedSegment = {
  capabilitiesHeading: 'Capabilities',
  quickActionsHeading: 'Quick Actions',
  dialog: {
    body: `Your account manager switches this on for your organization. Send a request and we answer within ${serviceRequestAnswerBusinessDays} business days; everyone in your organization sees it on this dashboard.`,
    send: 'Send Request',
    sending: 'Sending…',
    sent: 'Request sent.',
    alreadyOpen: 'Your organization has already asked for this.',
    failed: 'Your request could not be sent. Please try again in a moment.',
    // An account without an organization (registered before organizations) cannot file one.
    noOrganization:
      'This capability is available after onboarding with your account manager. To schedule it,',
    contact: 'contact us',
    close: 'Close',
  },
  requests: {
    heading: "Your Organization's Requests",
    empty: 'No requests yet: a quick action sends our team one.',
    failed: "Your organization's requests could not be loaded. Reload the page to try again.",
    requested: 'Requested',
    received: 'Received',
    answerWithin: `we answer within ${serviceRequestAnswerBusinessDays} business days, by`,
  },
  links: {
    label: 'More',
    account: 'Your Account',
  },
} as const;

export const dashboardsCopy = {
  setup: {
    title: 'Dashboard',
    welcome: (name: string) => (name.trim() ? `Welcome, ${name.trim()}` : 'Welcome'),
    lead: 'Where your organization stands in onboarding, and your account at a glance.',
    identity: {
      approved: {
        heading: 'Identity Verification Complete',
        body: 'Your identity is verified. Your organization has full access to its dashboard.',
      },
      notStarted: {
        heading: 'Identity Verification Required',
        body: 'Before your organization can use the platform, we verify the identity of the person responsible for it. It takes about five minutes: you give your consent, then our verification partner Persona checks a photo of your government-issued ID against a selfie.',
        consent: 'Provide Verification Consent',
      },
      consentGiven: {
        heading: 'Identity Verification Required',
        body: 'Your consent is recorded. The next step is the verification itself: our verification partner Persona checks a photo of your government-issued ID against a selfie. It takes about five minutes.',
        verify: 'Continue to Verification',
      },
      pending: {
        heading: 'Identity Verification Under Review',
        body: 'Your verification has been submitted and is being reviewed. We will email you when it is decided.',
        status: 'View Verification Status',
      },
      rejected: {
        heading: 'Identity Verification Not Approved',
        body: 'Your identity verification was not approved. Our team can tell you why and how your organization can continue.',
        status: 'View Verification Status',
      },
    },
    account: {
      heading: 'Account',
      email: 'Email',
      emailVerified: 'Email verified',
      yes: 'Yes',
      no: 'No',
      organizationType: 'Organization type',
      verification: 'Verification status',
      manage: 'Your Account',
    },
    openSegment: {
      commercial: 'Open Commercial Dashboard',
      defense: 'Open Defense and Government Dashboard',
    },
  },
  segment: sharedSegment,
  commercial: {
    title: 'Commercial Space Operations',
    intro:
      'Your workspace for pathogen-evolution forecasting. Each capability is switched on for your organization during onboarding with your account manager.',
    capabilities: [
      {
        name: 'Mission Planning',
        description:
          'Plan forecasting missions: choose the pathogens, regions and time horizons to model, and schedule runs on the quantum computing engine.',
      },
      {
        name: 'Market Analysis',
        description:
          'Turn evolution forecasts into market signals: expected demand for vaccines, diagnostics and therapeutics, by region and season.',
      },
      {
        name: 'Fleet Management',
        description:
          'Follow the nanosatellite constellation that will feed the forecasts: coverage, health and tasking of each satellite as it comes online.',
      },
      {
        name: 'Global Operations',
        description:
          'See your programs across sites and partners in one view, with alerts when a forecast that affects them changes.',
      },
    ],
    quickActions: ['mission-analysis', 'fleet-status', 'market-report'],
  } satisfies SegmentDashboardCopy,
  defense: {
    title: 'Defense and Government Dashboard',
    intro:
      'Your workspace for biosecurity and biodefense forecasting. Each capability is switched on for your organization during onboarding with your account manager.',
    banner: {
      title: 'Classified access',
      body: 'This workspace is open only to verified defense and government organizations. Handle everything you see here under your organization’s security rules.',
    },
    capabilities: [
      {
        name: 'Threat Assessment',
        description:
          'Assess emerging biological threats with pathogen-evolution forecasts, ranked by likelihood and impact on your area of responsibility.',
      },
      {
        name: 'Surveillance Systems',
        description:
          'Bring genomic surveillance feeds and satellite observation coverage together for early warning of outbreaks.',
      },
      {
        name: 'Strategic Assets',
        description:
          'Weigh countermeasure stockpiles, laboratory capacity and constellation assets against forecast scenarios.',
      },
      {
        name: 'Secure Communications',
        description:
          'Share assessments with cleared partners over channels kept apart from commercial organizations.',
      },
    ],
    quickActions: ['threat-scan', 'intel-reports', 'strategic-planning'],
  } satisfies SegmentDashboardCopy,
} as const;
