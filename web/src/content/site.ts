// Copy shared by every page: the product name, navigation, footer, cookie banner and toasts.
export const site = {
  productName: 'Helix Forecast',
  skipToContent: 'Skip to main content',
  homeLink: 'Helix Forecast home',
  nav: {
    label: 'Main',
    framework: 'Our Framework',
    vision: 'The Vision',
    account: 'Account',
    logIn: 'Log In',
    dashboard: 'Dashboard',
    /** A signed-in user not yet approved: back to their next step of onboarding (ADR 0085). */
    nextStep: 'Continue Setup',
    verificationReview: 'Verification Review',
    team: 'Team',
    requestAccess: 'Request Beta Access',
    loading: 'Loading...',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    logOut: 'Log Out',
    logInFailedTitle: 'Authentication Error',
    logInFailed: 'Login failed',
    logOutFailed: 'Logging out failed. Please try again.',
  },
  theme: {
    switchToDark: 'Switch to dark theme',
    switchToLight: 'Switch to light theme',
    /** Before the theme is known (prerendered HTML), the button can only say what it is. */
    unknown: 'Switch colour theme',
  },
  footer: {
    label: 'Footer',
    note: 'Genomic pathogen-evolution forecasting for enterprise, pharma, defense and biosecurity organizations.',
    resources: 'Resources',
    company: 'Company',
    legal: 'Legal',
    documentation: 'Documentation',
    tutorials: 'Tutorials',
    careers: 'Careers',
    investors: 'Investors',
    contact: 'Contact',
    terms: 'Terms',
    privacy: 'Privacy',
    gdpr: 'GDPR',
    impressum: 'Impressum',
    cookieSettings: 'Cookie settings',
    registration: 'Company registration',
    banking: 'Banking details',
    iban: 'IBAN',
    bic: 'BIC',
  },
  cookieBanner: {
    title: 'Cookies on this site',
    body: 'We use essential cookies to run the site. With your consent we also use analytics, marketing and AI personalization cookies.',
    policyLink: 'Cookie policy',
    acceptAll: 'Accept all',
    rejectAll: 'Reject all',
    customize: 'Customize',
    save: 'Save choices',
    essential: 'Essential (always on)',
    analytics: 'Analytics',
    marketing: 'Marketing',
    personalization: 'AI personalization',
  },
  toast: {
    regionLabel: 'Notifications',
    errorRegionLabel: 'Errors',
    dismiss: 'Dismiss notification',
  },
  /** The language switcher: one link to the same page in the other language (issue 28, ADR 0089). */
  language: {
    label: 'Language',
    /** The link's text, in the other language (the link carries `lang="de"`). */
    switchTo: 'Deutsch',
    switchToLabel: 'Auf Deutsch lesen',
  },
} as const;

export function pageTitle(page?: string): string {
  return page ? `${page} | ${site.productName}` : site.productName;
}
