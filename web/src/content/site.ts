// Copy shared by every page: the product name, navigation and footer.
export const site = {
  productName: 'Helix Forecast',
  tagline: 'Forecasting pathogen evolution',
  skipToContent: 'Skip to main content',
  nav: {
    label: 'Main',
    home: 'Home',
  },
  theme: {
    switchToDark: 'Switch to dark theme',
    switchToLight: 'Switch to light theme',
    /** Before the theme is known (prerendered HTML), the button can only say what it is. */
    unknown: 'Switch colour theme',
  },
  footer: {
    note: 'Genomic pathogen-evolution forecasting for enterprise, pharma, defense and biosecurity organizations.',
  },
} as const;

export function pageTitle(page?: string): string {
  return page ? `${page} | ${site.productName}` : site.productName;
}
