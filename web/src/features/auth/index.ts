// The auth feature's public face: its screens, each loaded lazily (its own chunk) by app/routes.tsx.
export const authScreens = {
  authCallback: () => import('./screens/auth-callback.tsx'),
  verificationRequired: () => import('./screens/verification-required.tsx'),
  registrationSuccess: () => import('./screens/registration-success.tsx'),
};
