// Bundled in place of `@aws-sdk/credential-provider-node` (an esbuild alias in the function
// construct and the bench script). Lambda always hands a function its role's credentials in
// environment variables, so the SSO, INI, process, web-identity and IMDS providers of the default
// chain are dead weight: about 100 KB and several milliseconds of every cold start.
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
