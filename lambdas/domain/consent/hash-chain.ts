import { createHash } from 'node:crypto';

// The consent ledger's tamper evidence (docs/decisions/0005-consent-ledger.md). Each subject's
// records form a chain: a record's `hash` covers every other attribute of the record, including
// `previousHash`, the `hash` of the subject's record before it. Changing, removing or inserting a
// record therefore breaks the chain at that point. Pure, so the adapter, the audit script and the
// tests compute exactly the same thing.

/** Anything stored as a ledger item (a `ConsentRecord`, read back as it is). */
export type LedgerItem = object;

const fieldsOf = (item: LedgerItem) => item as Record<string, unknown>;

/** For messages: a tampered attribute may hold anything, even an object without a prototype. */
const show = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
};

/**
 * Retention metadata, not part of the proof: set on every record of a subject when the
 * relationship ends (ADR 0031), after the record was hashed, so it is left out of the hash.
 */
export const retentionAttribute = 'expiresAt';

/**
 * The canonical form hashed for a record: JSON of every attribute except `hash` and
 * `expiresAt` (the retention metadata above), with the keys of
 * every object sorted by UTF-16 code unit (as `Array.prototype.sort` does), no whitespace, strings
 * and numbers as `JSON.stringify` writes them. For the values a record holds (strings, integers,
 * booleans, null, flat objects) this is the JSON Canonicalization Scheme (RFC 8785), so an auditor
 * can recompute a hash with any JCS library:
 *
 *   sha256_hex(JCS(record without "hash" and "expiresAt"))
 */
export function canonicalRecord(item: LedgerItem): string {
  const { hash: _hash, [retentionAttribute]: _expiresAt, ...rest } = fieldsOf(item);
  return canonicalJson(rest);
}

/**
 * A string as JCS writes it. RFC 8785 (section 3.2.2.2) refuses a lone surrogate: it has no UTF-8
 * form, so two implementations could hash it differently; `JSON.stringify` would write it as `\udXXX`.
 */
function canonicalString(value: string): string {
  // With the `u` flag a surrogate pair is one code point, so only a lone surrogate matches.
  if (/\p{Surrogate}/u.test(value))
    throw new TypeError('A ledger record cannot hold a string with a lone surrogate.');
  return JSON.stringify(value);
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return canonicalString(value);
  if (typeof value === 'number') {
    // NaN and Infinity have no JSON form: a record never holds them, so refuse rather than guess.
    if (!Number.isFinite(value)) throw new TypeError('A ledger record cannot hold a non-finite number.');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      // An absent attribute and an undefined one are the same item in DynamoDB.
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${canonicalString(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`A ledger record cannot hold a value of type ${typeof value}.`);
}

/** SHA-256 (lowercase hex) of the record's canonical form. */
export function recordHash(item: LedgerItem): string {
  return createHash('sha256').update(canonicalRecord(item), 'utf8').digest('hex');
}

export type ChainBreakKind =
  | 'hash_mismatch'
  | 'previous_hash_mismatch'
  | 'missing_sequence'
  | 'duplicate_sequence'
  | 'invalid_sequence';

export interface ChainBreak {
  subjectId: string;
  /** The sequence where the chain breaks (for a gap: the first missing sequence). */
  sequence: number;
  kind: ChainBreakKind;
  reason: string;
}

export interface ChainVerification {
  ok: boolean;
  /** Number of subjects and records checked. */
  subjects: number;
  records: number;
  breaks: ChainBreak[];
}

/**
 * Verifies complete chains: pass ALL records of each subject (in any order). Each subject's
 * sequences must run 1, 2, 3... without gaps; the first record's `previousHash` must be null and
 * every other one must equal the stored `hash` of the record before it; each stored `hash` must
 * equal the hash recomputed from the record's attributes.
 *
 * A chain cannot show that its newest records were removed: compare the head against an earlier
 * audit's export for that (see the ADR).
 */
export interface ChainOptions {
  /** The attribute naming an item's chain: `subjectId` in the consent ledger, `chain` in the admin trail. */
  chainKey?: string;
  /**
   * The first sequence passed (default 1): a segment of a longer chain, whose first record's
   * `previousHash` is not checked (its predecessor is not in the segment; ADR 0078).
   */
  from?: number;
}

export function verifyChain(items: readonly LedgerItem[], options: ChainOptions = {}): ChainVerification {
  const chainKey = options.chainKey ?? 'subjectId';
  const from = options.from ?? 1;
  const bySubject = new Map<string, Record<string, unknown>[]>();
  for (const item of items.map(fieldsOf)) {
    const subjectId = show(item[chainKey]);
    const list = bySubject.get(subjectId) ?? [];
    list.push(item);
    bySubject.set(subjectId, list);
  }
  const breaks: ChainBreak[] = [];
  for (const [subjectId, list] of bySubject) breaks.push(...verifySubject(subjectId, list, from));
  return { ok: breaks.length === 0, subjects: bySubject.size, records: items.length, breaks };
}

function verifySubject(subjectId: string, list: Record<string, unknown>[], from: number): ChainBreak[] {
  const breaks: ChainBreak[] = [];
  const push = (sequence: number, kind: ChainBreakKind, reason: string) =>
    breaks.push({ subjectId, sequence, kind, reason });

  const valid: Record<string, unknown>[] = [];
  for (const item of list) {
    if (typeof item.sequence === 'number' && Number.isInteger(item.sequence) && item.sequence >= 1) {
      valid.push(item);
    } else {
      push(0, 'invalid_sequence', `A record has an invalid sequence: ${show(item.sequence)}.`);
    }
  }
  valid.sort((a, b) => (a.sequence as number) - (b.sequence as number));

  let expected = from;
  let previous: Record<string, unknown> | undefined;
  for (const item of valid) {
    const sequence = item.sequence as number;
    if (previous && sequence === previous.sequence) {
      push(sequence, 'duplicate_sequence', `Sequence ${sequence} appears more than once.`);
      continue;
    }
    if (sequence > expected) {
      const missing = sequence - 1 === expected ? `${expected}` : `${expected} to ${sequence - 1}`;
      push(
        expected,
        'missing_sequence',
        `Record ${missing} is missing: the chain has a gap before ${sequence}.`,
      );
    }
    const recomputed = recordHash(item);
    if (recomputed !== item.hash) {
      push(
        sequence,
        'hash_mismatch',
        `The stored hash does not match the record's content: a field was changed after it was written ` +
          `(stored ${show(item.hash)}, recomputed ${recomputed}).`,
      );
    }
    // Only a record directly after its predecessor can be checked against it; a gap is reported above.
    const expectedPrevious =
      sequence === 1 ? null : previous?.sequence === sequence - 1 ? previous.hash : undefined;
    if (expectedPrevious !== undefined && item.previousHash !== expectedPrevious) {
      push(
        sequence,
        'previous_hash_mismatch',
        sequence === 1
          ? `The first record must have previousHash null, not ${show(item.previousHash)}.`
          : `previousHash ${show(item.previousHash)} is not the hash of record ${sequence - 1} ` +
              `(${show(expectedPrevious)}).`,
      );
    }
    previous = item;
    expected = sequence + 1;
  }
  return breaks;
}
