// The admin feature's public face: its screen, loaded lazily (its own chunk) by app/routes.tsx.
export const adminScreens = {
  verificationReview: () => import('./screens/verification-review.tsx'),
};
