import { createHmac, timingSafeEqual } from 'node:crypto';

// Verifies Persona's `Persona-Signature` header on the raw request bytes, before anything parses
// them (docs/design.md section 3). Pure: the caller passes the secrets and the time.
//
// Header: `t=<unix seconds>,v1=<hex>`; during Persona's secret rotation it holds several
// space-separated `t=...,v1=...` sets, and any match passes. Our configured secret may likewise
// hold several secrets separated by whitespace or commas, so we can roll ours without downtime:
// put old and new in the secret, switch Persona, then remove the old one.

export const maxSignatureAgeSeconds = 5 * 60;
export const maxSignatureFutureSeconds = 60;
/**
 * Persona sends one `t=...,v1=...` pair, two while it rotates its secret. Each pair may cost an HMAC
 * of the whole body (up to 2 MiB) per secret of ours, so a header with more is refused unread
 * (ADR 0071).
 */
export const maxSignaturePairs = 2;

export type SignatureCheck =
  | { ok: true }
  | {
      ok: false;
      reason: 'missing' | 'malformed' | 'too_many_signatures' | 'stale' | 'future' | 'mismatch' | 'no_secret';
    };

interface SignedPair {
  t: number;
  v1: string;
}

/** Splits the configured secret value into the secrets to try (whitespace or comma separated). */
export function parseWebhookSecrets(value: string): string[] {
  return value.split(/[\s,]+/).filter((secret) => secret !== '');
}

function parsePairs(header: string): SignedPair[] | undefined {
  const pairs: SignedPair[] = [];
  for (const set of header.trim().split(/\s+/)) {
    let t: number | undefined;
    const v1: string[] = [];
    for (const part of set.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 1) return undefined;
      const key = part.slice(0, eq);
      const value = part.slice(eq + 1);
      if (key === 't') {
        if (!/^\d{1,12}$/.test(value)) return undefined;
        t = Number(value);
      } else if (key === 'v1') {
        if (!/^[0-9a-fA-F]{64}$/.test(value)) return undefined;
        v1.push(value.toLowerCase());
      }
      // Other schemes (v0, v2, ...) are ignored: only v1 is defined today.
    }
    if (t === undefined || v1.length === 0) return undefined;
    for (const signature of v1) pairs.push({ t, v1: signature });
  }
  return pairs.length > 0 ? pairs : undefined;
}

/** Hex HMAC-SHA256 of the parts, concatenated (the primitive of GitHub's `X-Hub-Signature-256` too). */
export function hmacSha256Hex(secret: string, ...parts: (Uint8Array | string)[]): string {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** HMAC-SHA256 of `<t>.<raw body>`, hex: what Persona puts in `v1`. */
export function personaSignature(secret: string, t: number, body: Uint8Array | string): string {
  return hmacSha256Hex(secret, `${t}.`, body);
}

/**
 * Constant-time equality of two hex digests. Digests of different lengths are simply unequal:
 * `timingSafeEqual` throws on them, which would turn a forged header into a 500.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyPersonaSignature(input: {
  header: string | undefined;
  body: Uint8Array | string;
  secrets: readonly string[];
  nowSeconds: number;
}): SignatureCheck {
  if (input.secrets.length === 0) return { ok: false, reason: 'no_secret' };
  if (input.header === undefined || input.header.trim() === '') return { ok: false, reason: 'missing' };
  const pairs = parsePairs(input.header);
  if (pairs === undefined) return { ok: false, reason: 'malformed' };
  if (pairs.length > maxSignaturePairs) return { ok: false, reason: 'too_many_signatures' };
  // The time is checked before any hashing: a stale or future `t` costs nothing. An attacker can
  // choose `t`, so this says nothing about authenticity; it only bounds the work.
  const fresh = pairs.filter(
    (pair) =>
      pair.t >= input.nowSeconds - maxSignatureAgeSeconds &&
      pair.t <= input.nowSeconds + maxSignatureFutureSeconds,
  );
  if (fresh.length === 0) {
    const stale = pairs.some((pair) => pair.t < input.nowSeconds - maxSignatureAgeSeconds);
    return { ok: false, reason: stale ? 'stale' : 'future' };
  }
  // One digest per (secret, t), however many `v1` values share the `t`. Every fresh pair is compared
  // with every secret's digest, without returning early: the time taken does not say which matched.
  const digests = new Map<number, string[]>();
  for (const { t } of fresh) {
    if (!digests.has(t))
      digests.set(
        t,
        input.secrets.map((secret) => personaSignature(secret, t, input.body)),
      );
  }
  let matched = false;
  for (const pair of fresh) {
    for (const digest of digests.get(pair.t) ?? []) if (digestsEqual(digest, pair.v1)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' };
}
