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

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch' | 'no_secret' };

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
  let timeFailure: 'stale' | 'future' | undefined;
  let matched = false;
  // Check every pair against every secret, without returning early: the time taken does not say
  // which one matched.
  for (const pair of pairs) {
    for (const secret of input.secrets) {
      if (!digestsEqual(personaSignature(secret, pair.t, input.body), pair.v1)) continue;
      if (pair.t < input.nowSeconds - maxSignatureAgeSeconds) timeFailure ??= 'stale';
      else if (pair.t > input.nowSeconds + maxSignatureFutureSeconds) timeFailure ??= 'future';
      else matched = true;
    }
  }
  if (matched) return { ok: true };
  return { ok: false, reason: timeFailure ?? 'mismatch' };
}
