import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  canonicalRecord,
  recordHash,
  verifyChain,
} from '#lambdas/domain/consent/hash-chain.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { InMemoryConsentLedger, sampleEntry } from '#tests/lambdas/domain/fakes.ts';

async function chainOf(length: number, subjectId = 'auth0|alice'): Promise<ConsentRecord[]> {
  const ledger = new InMemoryConsentLedger();
  for (let index = 0; index < length; index += 1) {
    await ledger.append(sampleEntry({ subjectId, requestId: `req-${index}` }));
  }
  return ledger.records;
}

const clone = (records: ConsentRecord[]) => structuredClone(records) as unknown as Record<string, unknown>[];

/** A value of another type or content than `current`, so the change is always real. */
const differentValue = (current: unknown) =>
  fc
    .oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string(), fc.boolean()),
    )
    .filter((value) => JSON.stringify(value) !== JSON.stringify(current));

describe('the consent hash chain', () => {
  it('accepts an untouched chain, whose first record has previousHash null', async () => {
    const records = await chainOf(4);
    expect(records[0]?.previousHash).toBeNull();
    expect(records[1]?.previousHash).toBe(records[0]?.hash);
    expect(verifyChain(records)).toEqual({ ok: true, subjects: 1, records: 4, breaks: [] });
  });

  it('hashes the sorted-key JSON of every field except hash, so an auditor can recompute it', () => {
    const record = {
      subjectId: 'auth0|alice',
      sequence: 1,
      statements: { b_statement: true, a_statement: false },
      previousHash: null,
      locale: 'en',
      hash: 'ignored',
    };
    const canonical =
      '{"locale":"en","previousHash":null,"sequence":1,' +
      '"statements":{"a_statement":false,"b_statement":true},"subjectId":"auth0|alice"}';
    expect(canonicalRecord(record)).toBe(canonical);
    expect(recordHash(record)).toBe(createHash('sha256').update(canonical, 'utf8').digest('hex'));
  });

  it('gives the same hash whatever order the attributes come back in', async () => {
    const [record] = await chainOf(1);
    if (!record) throw new Error('no record');
    const reversed = Object.fromEntries(Object.entries(record).reverse());
    expect(recordHash(reversed)).toBe(record.hash);
  });

  it('detects any change of any field of any record', async () => {
    const records = await chainOf(3);
    const fields = Object.keys(records[0] ?? {});
    const fieldChange = (index: number) => (field: string) => {
      const current = (records[index] as unknown as Record<string, unknown>)[field];
      return differentValue(current).map((value) => ({ index, field, value }));
    };
    const recordChange = (index: number) => fc.constantFrom(...fields).chain(fieldChange(index));
    const change = fc.integer({ min: 0, max: records.length - 1 }).chain(recordChange);
    fc.assert(
      fc.property(change, ({ index, field, value }) => {
        const tampered = clone(records);
        (tampered[index] as Record<string, unknown>)[field] = value;
        expect(verifyChain(tampered).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('detects a changed statement value inside a record', async () => {
    const tampered = clone(await chainOf(3));
    (tampered[1]?.statements as Record<string, boolean>).biometric_data_consent = false;
    expect(verifyChain(tampered).breaks).toEqual([
      expect.objectContaining({ subjectId: 'auth0|alice', sequence: 2, kind: 'hash_mismatch' }),
    ]);
  });

  it('detects a field added to a stored record', async () => {
    const tampered = clone(await chainOf(2));
    (tampered[0] as Record<string, unknown>).note = 'added later';
    expect(verifyChain(tampered).breaks).toEqual([
      expect.objectContaining({ sequence: 1, kind: 'hash_mismatch' }),
    ]);
  });

  it('detects a rewritten record whose hash was recomputed, at the next record', async () => {
    const tampered = clone(await chainOf(3));
    const middle = tampered[1] as Record<string, unknown>;
    middle.locale = 'de';
    middle.hash = recordHash(middle);
    expect(verifyChain(tampered).breaks).toEqual([
      expect.objectContaining({ sequence: 3, kind: 'previous_hash_mismatch' }),
    ]);
  });

  it.each([
    [0, 1],
    [1, 2],
    [3, 4],
  ])('detects a deleted record (index %i) as a missing sequence %i', async (index, sequence) => {
    const records = await chainOf(5);
    const remaining = records.filter((_, position) => position !== index);
    expect(verifyChain(remaining).breaks).toContainEqual(
      expect.objectContaining({ subjectId: 'auth0|alice', sequence, kind: 'missing_sequence' }),
    );
  });

  it('refuses a first record that points at a previous hash', async () => {
    const tampered = clone(await chainOf(1));
    const first = tampered[0] as Record<string, unknown>;
    first.previousHash = 'f'.repeat(64);
    first.hash = recordHash(first);
    expect(verifyChain(tampered).breaks).toEqual([
      expect.objectContaining({ sequence: 1, kind: 'previous_hash_mismatch' }),
    ]);
  });

  it('checks each subject on its own and names the subject of each break', async () => {
    const alice = await chainOf(2, 'auth0|alice');
    const bob = clone(await chainOf(2, 'auth0|bob'));
    (bob[0] as Record<string, unknown>).ipAddress = '198.51.100.0';
    const result = verifyChain([...alice, ...(bob as unknown as ConsentRecord[])]);
    expect(result.subjects).toBe(2);
    expect(result.breaks.map((b) => b.subjectId)).toEqual(['auth0|bob']);
  });

  it('verifies records given in any order', async () => {
    const records = await chainOf(6);
    fc.assert(
      fc.property(fc.shuffledSubarray(records, { minLength: 6, maxLength: 6 }), (shuffled) => {
        expect(verifyChain(shuffled).ok).toBe(true);
      }),
    );
  });
});

describe('the canonical JSON is RFC 8785 (JCS), checked against an independent library (ADR 0071)', () => {
  // JSON values as a ledger record could hold them, with any well-formed Unicode in keys and strings.
  const wellFormed = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });

  it('writes exactly what the canonicalize package writes for well-formed input', () => {
    fc.assert(
      fc.property(wellFormed, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a lone surrogate in a string or a key, as the library and RFC 8785 do', () => {
    const loneSurrogate = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff');
    fc.assert(
      fc.property(fc.string(), loneSurrogate, fc.string(), fc.boolean(), (before, lone, after, asKey) => {
        const text = `${before}${lone}${asKey ? '' : after}`;
        const value = asKey ? { [text]: after } : { userAgent: text };
        expect(() => canonicalize(value)).toThrow();
        expect(() => canonicalJson(value)).toThrow(/lone surrogate/);
        expect(() => canonicalRecord(value)).toThrow(/lone surrogate/);
      }),
    );
  });

  it('accepts a surrogate pair (an emoji) and writes it as the library does', () => {
    const value = { name: 'Zoë 😀', '😀': ['\u2028'] };
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });
});
