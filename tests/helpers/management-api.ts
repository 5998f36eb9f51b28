// The helper lives with the tooling (the load run uses it too): tests import it from here.
// A call answered 429 waits until `x-ratelimit-reset` and is sent again (ADR 0061).
export { managementFetch, waitForReset } from '#scripts/lib/local-idp.ts';
