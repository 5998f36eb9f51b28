// A subscriber to the local realtime API (the AppSync Events emulator), speaking the protocol a
// browser speaks. It lives with the local stack's client, which the bench and the load run share
// (tooling never imports from tests/).
export { type Subscriber, subscribe } from '#scripts/lib/local-stack-client.ts';
