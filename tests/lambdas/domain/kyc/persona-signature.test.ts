import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  digestsEqual,
  hmacSha256Hex,
  maxSignaturePairs,
  parseWebhookSecrets,
  personaSignature,
  verifyPersonaSignature,
} from '#lambdas/domain/kyc/persona-signature.ts';

// Every HMAC the module computes goes through node:crypto's createHmac: counted, not timed.
const hmacs = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return {
    ...crypto,
    createHmac: (...args: Parameters<typeof crypto.createHmac>) => {
      hmacs.count++;
      return crypto.createHmac(...args);
    },
  };
});

const secret = 'wbhsec_test_secret_0001';
const now = 1_700_000_000;
const body = '{"data":{"id":"evt_1"}}';
const sign = (t: number, payload: string | Uint8Array = body, key = secret) =>
  `t=${t},v1=${personaSignature(key, t, payload)}`;
const verify = (
  header: string | undefined,
  payload: string | Uint8Array = body,
  secrets = [secret],
  nowSeconds = now,
) => verifyPersonaSignature({ header, body: payload, secrets, nowSeconds });

describe('personaSignature', () => {
  // Computed once with Python's hmac module (an independent implementation).
  it.each([
    [
      'wbhsec_test_secret_0001',
      1700000000,
      '{"data":{"id":"evt_1"}}',
      'ca2a67bc7ffe619520e2d2fab8e71f8c21d3aeb7178085bcc80d2e530975ab33',
    ],
    ['wbhsec_another', 1735689600, '', '01236dbacf2eff8390d317129e14fa294aa16db921bb6e1528dbadcb616b0d65'],
    [
      'wbhsec_unicode',
      1760000000,
      '{"name":"Zoë – ✓","n":1.10}',
      '62ef37fde6bdc6b1369da354d5944b80961f873dc09d0db4e9ef4f426356136d',
    ],
  ])('matches the known answer for secret %s at t=%i', (key, t, payload, expected) => {
    expect(personaSignature(key, t, payload)).toBe(expected);
    expect(personaSignature(key, t, Buffer.from(payload, 'utf8'))).toBe(expected);
  });
});

describe('the published known answers', () => {
  it("computes GitHub's X-Hub-Signature-256 example (its webhook docs: secret and payload as published)", () => {
    expect(hmacSha256Hex("It's a Secret to Everybody", 'Hello, World!')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('signs wbhsec_test over 1700000000.{"data":{"id":"evt_test"}} as expected, and accepts that header', () => {
    const payload = '{"data":{"id":"evt_test"}}';
    const v1 = '3a89f78ff57753659a384410b7ffbeebaf60711f5590db1d61ecad8866832a72';
    expect(personaSignature('wbhsec_test', 1_700_000_000, payload)).toBe(v1);
    expect(
      verifyPersonaSignature({
        header: `t=1700000000,v1=${v1}`,
        body: payload,
        secrets: ['wbhsec_test'],
        nowSeconds: 1_700_000_000,
      }),
    ).toEqual({ ok: true });
  });
});

describe('digestsEqual (the constant-time comparison)', () => {
  const digest = personaSignature(secret, now, body);

  it('is true only for the same digest', () => {
    expect(digestsEqual(digest, digest)).toBe(true);
    expect(digestsEqual(digest, digest.toUpperCase())).toBe(true);
    const last = digest.at(-1) === '0' ? '1' : '0';
    expect(digestsEqual(digest, `${digest.slice(0, -1)}${last}`)).toBe(false);
  });

  it.each([
    ['a truncated digest', digest.slice(0, -2)],
    ['an extended digest', `${digest}00`],
    ['an empty string', ''],
  ])('is false, without throwing, for %s (timingSafeEqual throws on unequal lengths)', (_name, other) => {
    expect(digestsEqual(digest, other)).toBe(false);
    expect(digestsEqual(other, digest)).toBe(false);
  });
});

describe('verifyPersonaSignature', () => {
  it('accepts a correct signature made now', () => {
    expect(verify(sign(now))).toEqual({ ok: true });
  });

  it('rejects a request without the header', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(verify('  ')).toEqual({ ok: false, reason: 'missing' });
  });

  it.each([
    'v1=abc',
    `t=${now}`,
    `t=abc,v1=${'0'.repeat(64)}`,
    `t=${now},v1=xyz`,
    `t=${now},v1=${'0'.repeat(63)}`,
    'garbage',
  ])('rejects the malformed header %s', (header) => {
    expect(verify(header)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('rejects a signature made with another secret', () => {
    expect(verify(sign(now, body, 'wbhsec_someone_else'))).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects a webhook whose body changed by one byte', () => {
    const header = sign(now);
    expect(verify(header, body.replace('evt_1', 'evt_2'))).toEqual({ ok: false, reason: 'mismatch' });
    expect(verify(header, `${body} `)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects a signature older than 5 minutes and accepts one just inside', () => {
    expect(verify(sign(now - 301))).toEqual({ ok: false, reason: 'stale' });
    expect(verify(sign(now - 300))).toEqual({ ok: true });
  });

  it('rejects a signature more than 1 minute in the future and accepts one just inside', () => {
    expect(verify(sign(now + 61))).toEqual({ ok: false, reason: 'future' });
    expect(verify(sign(now + 60))).toEqual({ ok: true });
  });

  it('accepts a rotation header where only one of the pairs is valid', () => {
    const header = `${sign(now, body, 'wbhsec_old_rotated_out')} ${sign(now)}`;
    expect(verify(header)).toEqual({ ok: true });
    expect(verify(`${sign(now)} ${sign(now, body, 'wbhsec_old_rotated_out')}`)).toEqual({ ok: true });
  });

  it('rejects a rotation header whose every pair is invalid', () => {
    expect(verify(`${sign(now, body, 'wbhsec_old_rotated_out')} ${sign(now, `${body} `)}`)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(`${sign(now, body, 'wbhsec_old_rotated_out')} ${sign(now - 301)}`)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(`${sign(now - 400)} ${sign(now - 301)}`)).toEqual({ ok: false, reason: 'stale' });
  });

  it('accepts a signature made with any of our configured (rotated) secrets', () => {
    const secrets = parseWebhookSecrets(' wbhsec_new ,wbhsec_old\nwbhsec_older ');
    expect(secrets).toEqual(['wbhsec_new', 'wbhsec_old', 'wbhsec_older']);
    expect(verify(sign(now, body, 'wbhsec_old'), body, secrets)).toEqual({ ok: true });
    expect(verify(sign(now, body, 'wbhsec_unknown'), body, secrets)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects everything when no secret is configured', () => {
    expect(verify(sign(now), body, parseWebhookSecrets('  '))).toEqual({ ok: false, reason: 'no_secret' });
  });

  it('verifies raw bytes, not a re-serialisation of the JSON', () => {
    const raw = Buffer.from('{"b":1.10,"a":2}', 'utf8');
    const header = sign(now, raw);
    expect(verify(header, raw)).toEqual({ ok: true });
    expect(verify(header, JSON.stringify(JSON.parse(raw.toString())))).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('accepts any body signed correctly and rejects it after any single-byte change', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, index, delta) => {
          const payload = Buffer.from(bytes);
          const header = sign(now, payload);
          expect(verify(header, payload)).toEqual({ ok: true });
          const tampered = Buffer.from(payload);
          const at = index % tampered.length;
          tampered[at] = ((tampered[at] ?? 0) + delta) % 256;
          expect(verify(header, tampered)).toEqual({ ok: false, reason: 'mismatch' });
        },
      ),
    );
  });
});

describe('the work an unauthenticated header can cause (ADR 0071)', () => {
  beforeEach(() => {
    hmacs.count = 0;
  });
  const v1 = (fill: string) => fill.repeat(64);
  const secrets = ['wbhsec_a', 'wbhsec_b', 'wbhsec_c'];

  it('computes no HMAC for a stale or a future t', () => {
    const stale = sign(now - 301);
    const future = `${sign(now + 61)} ${sign(now + 3600)}`;
    hmacs.count = 0; // signing the headers above counted too
    expect(verify(stale, body, secrets)).toEqual({ ok: false, reason: 'stale' });
    expect(verify(future, body, secrets)).toEqual({
      ok: false,
      reason: 'future',
    });
    expect(hmacs.count).toBe(0);
  });

  it(`refuses more than ${maxSignaturePairs} signatures without computing any HMAC, even with a valid one among them`, () => {
    expect(maxSignaturePairs).toBe(2);
    const header = [`t=${now},v1=${v1('a')}`, `t=${now},v1=${v1('b')}`, sign(now)].join(' ');
    hmacs.count = 0;
    expect(verify(header)).toEqual({ ok: false, reason: 'too_many_signatures' });
    // Three v1 values in one set count as three signatures too.
    expect(verify(`t=${now},v1=${v1('a')},v1=${v1('b')},v1=${v1('c')}`)).toEqual({
      ok: false,
      reason: 'too_many_signatures',
    });
    expect(hmacs.count).toBe(0);
  });

  it('computes one digest per secret and t, however many v1 values share that t', () => {
    expect(verify(`t=${now},v1=${v1('a')},v1=${v1('b')}`, body, secrets)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(hmacs.count).toBe(secrets.length);
  });

  it('computes at most one digest per secret for each of the two pairs of a rotation', () => {
    const header = `${sign(now - 1, body, 'wbhsec_b')} ${sign(now, body, 'wbhsec_old')}`;
    hmacs.count = 0;
    expect(verify(header, body, secrets)).toEqual({ ok: true });
    expect(hmacs.count).toBe(2 * secrets.length);
  });
});
