// The account feature's public face: its screen, loaded lazily (its own chunk) by app/routes.tsx.
export const accountScreens = {
  userAccount: () => import('./screens/user-account.tsx'),
};
