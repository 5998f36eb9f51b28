// The parts of the `persona` SDK this app uses, loaded by /kyc/persona as its own chunk. Importing
// them by name (instead of the whole module namespace) lets the bundler leave out the SDK's
// `Client` class, which the app does not use (components/persona-inquiry.ts says why).
export { setupEvents, setupIframe } from 'persona';
