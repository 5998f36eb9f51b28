// The part of AppSync's `@aws-appsync/utils` the channel handlers use: AppSync provides the module
// at run time (it is external to the bundle); locally the emulator binds a stand-in.
declare module '@aws-appsync/utils' {
  export const util: {
    /** Refuses the operation: the client gets `subscribe_error` with an UnauthorizedException. */
    unauthorized(): never;
  };
}
