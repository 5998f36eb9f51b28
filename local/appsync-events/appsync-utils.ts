// The emulator's stand-in for AppSync's `@aws-appsync/utils` (bound into the handler bundle by
// `handlers.ts`): `util.unauthorized()` refuses the operation, as it does in AppSync.
export const util = {
  unauthorized(): never {
    throw Object.assign(new Error('Unauthorized'), { appsyncUnauthorized: true });
  },
};
