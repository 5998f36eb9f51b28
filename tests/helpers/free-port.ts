// Shared with the bench (scripts/lib/free-port.ts), re-exported for the tests.
export { freePort } from '#scripts/lib/free-port.ts';
