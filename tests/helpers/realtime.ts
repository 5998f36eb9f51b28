// The subscriber lives with the tooling (the load run uses it too): tests import it from here.
export { type Subscriber, subscribe } from '#scripts/lib/realtime-subscriber.ts';
