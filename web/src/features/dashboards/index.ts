// The dashboards feature's public face: its screens, each loaded lazily (its own chunk) by
// app/routes.tsx.
export const dashboardScreens = {
  setup: () => import('./screens/setup-dashboard.tsx'),
  commercial: () => import('./screens/commercial-dashboard.tsx'),
  defense: () => import('./screens/defense-dashboard.tsx'),
};
