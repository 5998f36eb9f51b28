import type {
  AdminAuditAction,
  AdminAuditActorType,
  AdminAuditEntry,
  AdminAuditTargetType,
} from '#contracts/admin-audit.ts';
import { auditTrailRetentionYears } from '#contracts/retention.ts';
import { recordHash } from '../consent/hash-chain.ts';

// The admin audit trail (ADR 0078), built the way the consent ledger is (ADR 0005): each entry's
// `hash` covers every other attribute (RFC 8785 JSON, SHA-256), including `previousHash`, the
// hash of the entry before it. There is one chain for the whole product: reviewers' and operators'
// actions are rare and human-paced, and one total order lets an auditor see that nothing between
// two entries went missing, whoever it concerned. Pure: the use cases build an entry, an adapter
// stores it (alone, or in the same transaction as the change it records).

export type { AdminAuditEntry };

/** The one chain's partition. */
export const adminAuditChain = 'admin';

export type AuditDetails = Record<string, string | number | boolean | null>;

/** What a use case says about its action; the chain adds the rest. */
export interface AdminAuditFacts {
  actorType: AdminAuditActorType;
  actorId: string;
  action: AdminAuditAction;
  targetType: AdminAuditTargetType;
  targetId: string;
  reasonCode: string | null;
  reason: string | null;
  details: AuditDetails;
  requestId: string | null;
}

/** The newest entry, which the next one chains onto. */
export interface AuditHead {
  sequence: number;
  hash: string;
}

/** A stored entry: the hashed attributes and the retention deadline (epoch seconds, outside the hash). */
export type StoredAuditEntry = AdminAuditEntry & { expiresAt: number };

/** When an entry written at `recordedAt` expires: `auditTrailRetentionYears` later (retention table). */
export function auditEntryExpiry(recordedAt: Date): number {
  const until = new Date(recordedAt.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + auditTrailRetentionYears);
  return Math.floor(until.getTime() / 1000);
}

/** The entry after `head` (the first of the chain when there is none). */
export function chainEntry(
  facts: AdminAuditFacts,
  head: AuditHead | undefined,
  at: { entryId: string; recordedAt: Date },
): StoredAuditEntry {
  const unhashed: Omit<AdminAuditEntry, 'hash'> = {
    // Copied field by field: facts with extra properties must not leak them into the trail.
    chain: adminAuditChain,
    sequence: (head?.sequence ?? 0) + 1,
    entryId: at.entryId,
    recordedAt: at.recordedAt.toISOString(),
    actorType: facts.actorType,
    actorId: facts.actorId,
    action: facts.action,
    targetType: facts.targetType,
    targetId: facts.targetId,
    reasonCode: facts.reasonCode,
    reason: facts.reason,
    details: { ...facts.details },
    requestId: facts.requestId,
    previousHash: head?.hash ?? null,
  };
  return { ...unhashed, hash: recordHash(unhashed), expiresAt: auditEntryExpiry(at.recordedAt) };
}

/** The trail's storage (lambdas/adapters/dynamodb-admin-audit-log.ts). */
export interface AdminAuditLog {
  /** The newest entry still kept; undefined for an empty trail. */
  head(): Promise<AuditHead | undefined>;
  /**
   * Appends one entry on its own, chaining onto the head and retrying when another append takes
   * the sequence first (operators' commands; a reviewer's decision is appended in the decision's
   * own transaction instead).
   */
  append(facts: AdminAuditFacts): Promise<AdminAuditEntry>;
  /** Entries with `fromIso <= recordedAt <= toIso`, oldest first. */
  listByTime(fromIso: string, toIso: string): Promise<AdminAuditEntry[]>;
  /** The chain from `sequence` to its head, in order. */
  listFrom(sequence: number): Promise<AdminAuditEntry[]>;
  /** The newest `limit` entries about one target (a person's `sub`), oldest first. */
  listByTarget(targetId: string, limit: number): Promise<{ entries: AdminAuditEntry[]; truncated: boolean }>;
}

/** A reviewer's decision: a reversal when it turns a decision around, else a decision. */
export function decisionAction(previousStatus: string, status: string): AdminAuditAction {
  const decided = previousStatus === 'approved' || previousStatus === 'rejected';
  return decided && previousStatus !== status ? 'verification_reversed' : 'verification_decided';
}
