// The tests' own Management API calls spend the tenant's quota like everyone else's (ADR 0061):
// the local identity provider counts them in the one bucket the functions share, as Auth0 would.
// Rather than being exempt, a call answered 429 waits until `x-ratelimit-reset` (epoch seconds)
// and is sent again, so a test stays deterministic however busy the bucket is.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a 429 asks to wait, in ms, from `x-ratelimit-reset`; a short pause when it names none. */
export function waitForReset(response: Response, nowMs: number = Date.now()): number {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) return 250;
  // At least a little: a reset in the current second (the fault knob's default) is not a busy loop.
  return Math.max(50, reset * 1000 - nowMs);
}

/**
 * `fetch` for `/api/v2/*`: a 429 is waited out and the call sent again, for up to `maxWaitMs` in
 * all; past that the 429 is answered as it came (the test fails on it, rather than hanging).
 * A body is sent again as it is: give a string, not a stream.
 */
export async function managementFetch(
  url: string,
  init: RequestInit = {},
  { maxWaitMs = 20_000 }: { maxWaitMs?: number } = {},
): Promise<Response> {
  const started = Date.now();
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const wait = waitForReset(response);
    if (Date.now() - started + wait > maxWaitMs) return response;
    await response.arrayBuffer();
    await sleep(wait);
  }
}
