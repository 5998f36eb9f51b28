// The organization feature's public face: the team page (ADR 0084), loaded lazily (its own chunk) by app/routes.tsx.
export const organizationScreens = {
  team: () => import('./screens/organization-team.tsx'),
};
