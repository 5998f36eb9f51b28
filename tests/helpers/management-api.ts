import type { StackInfo } from '#local/stack.ts';
import { managementFetch, managementToken } from '#scripts/lib/local-idp.ts';

// The helper lives with the tooling (the load run uses it too): tests import it from here.
// A call answered 429 waits until `x-ratelimit-reset` and is sent again (ADR 0061).
export { managementFetch, waitForReset } from '#scripts/lib/local-idp.ts';

/**
 * A Management API call to the stack's identity provider with the operator's token, answered as
 * `{status, body}` (the body parsed when there is one), for asserting what Auth0 holds.
 */
export function managementApi(stack: StackInfo) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await managementFetch(`${stack.idp.issuer}api/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await managementToken(stack)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
}
