// The signed-in area's placeholder page until the onboarding screens exist. Apart from site.ts so
// its copy loads with the lazy app route, not with every public page.
export const appRoute = {
  title: 'Sign-in opens soon',
  body: 'The signed-in area of the platform is not available yet. Request beta access on the home page to hear first.',
} as const;
