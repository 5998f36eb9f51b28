// The KYC feature's public face: its screens, each loaded lazily (its own chunk) by app/routes.tsx.
export const kycScreens = {
  start: () => import('./screens/kyc-start.tsx'),
  persona: () => import('./screens/kyc-persona.tsx'),
  status: () => import('./screens/kyc-status.tsx'),
};
