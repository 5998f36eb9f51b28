import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type FlaggedCheck, flaggedCheck, flaggedChecksMax } from '#contracts/flagged-checks.ts';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { retentionAttribute } from '#lambdas/domain/consent/hash-chain.ts';
import type { DecidedBy, KycProposal, KycRecord } from '#lambdas/domain/kyc/ports.ts';
import type { KycState, KycStateReader } from '#lambdas/domain/ports.ts';

/**
 * The KYC table's per-user state item, `{ pk: 'USER#<sub>', sk: 'STATE' }`, with at least
 * `status` (KycStatus), `updatedAt` (ISO) and `inquiryId` (string | null). The KYC feature owns
 * the writes (`DynamoDbKycStore`); every read of it goes through `DynamoDbKycStateReader`.
 */
export const kycStateKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'STATE' });

/** DynamoDB's TTL attributes (`expiresAt`) are epoch seconds. */
export const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** An item past its `expiresAt`: gone for every reader, though DynamoDB deletes it only eventually. */
export function isExpired(item: Record<string, unknown>, now: Date = new Date()): boolean {
  return typeof item[retentionAttribute] === 'number' && item[retentionAttribute] <= epochSeconds(now);
}

export const isStatus = (value: unknown): value is KycStatus =>
  typeof value === 'string' && (kycStatuses as readonly string[]).includes(value);
export const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A state item as the KYC feature reads it (listings included). */
export function toKycRecord(item: Record<string, unknown>): KycRecord {
  const userId = String(item.userId ?? String(item.pk).replace(/^USER#/, ''));
  const decidedBy =
    item.decidedBy === 'persona' || item.decidedBy === 'admin' || item.decidedBy === 'user'
      ? (item.decidedBy as DecidedBy)
      : null;
  const inquiryId = stringOrNull(item.inquiryId);
  return {
    userId,
    status: isStatus(item.status) ? item.status : 'not_started',
    updatedAt: String(item.updatedAt ?? ''),
    inquiryId,
    referenceId: stringOrNull(item.referenceId),
    version: typeof item.version === 'number' ? item.version : 0,
    lastEventId: stringOrNull(item.lastEventId),
    lastEventAt: stringOrNull(item.lastEventAt),
    decidedBy,
    reasonCode: stringOrNull(item.reasonCode),
    attempt: attemptOf(item, inquiryId),
    newAttemptAllowed: item.newAttemptAllowed === true,
    erased: isErased(item),
    proposal: proposalOf(item.proposal),
    ...flaggedChecksOf(item.flaggedChecks),
  };
}

/** The stored failed checks (ADR 0082's amendment), whole ones only; nothing when there are none. */
function flaggedChecksOf(value: unknown): { flaggedChecks?: FlaggedCheck[] } {
  if (!Array.isArray(value)) return {};
  const checks = value.flatMap((entry) => {
    const check = flaggedCheck.safeParse(entry);
    return check.success ? [check.data] : [];
  });
  return checks.length === 0 ? {} : { flaggedChecks: checks.slice(0, flaggedChecksMax) };
}

/** A stored four-eyes proposal (ADR 0080), or null for none or one that is not whole. */
function proposalOf(value: unknown): KycProposal | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  if (p.decision !== 'approved' && p.decision !== 'rejected') return null;
  if (typeof p.reasonCode !== 'string' || typeof p.adminId !== 'string' || typeof p.at !== 'string')
    return null;
  if (!isStatus(p.fromStatus)) return null;
  return {
    decision: p.decision,
    reasonCode: p.reasonCode,
    reason: typeof p.reason === 'string' ? p.reason : null,
    adminId: p.adminId,
    at: p.at,
    fromStatus: p.fromStatus,
  };
}

/** The state carries an erasure's retention deadline (any `expiresAt`, past or to come: ADR 0077). */
export const isErased = (item: Record<string, unknown>): boolean =>
  typeof item[retentionAttribute] === 'number';

/** States written before attempts were counted: one attempt if an inquiry exists, else none. */
function attemptOf(item: Record<string, unknown>, inquiryId: string | null): number {
  if (typeof item.attempt === 'number') return item.attempt;
  return inquiryId === null && item.status === 'not_started' ? 0 : 1;
}

/** Reads the KYC state item, strongly consistent: it is the truth. */
export class DynamoDbKycStateReader implements KycStateReader {
  constructor(
    protected readonly client: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  /**
   * The state as other features see it. An item past its retention (`expiresAt`, set when the
   * relationship ended) is no state at all: DynamoDB deletes expired items only eventually.
   */
  async getState(userId: string): Promise<KycState | undefined> {
    const item = await this.getItem(userId);
    if (!item || !isStatus(item.status) || isExpired(item)) return undefined;
    const record = toKycRecord(item);
    return {
      status: record.status,
      updatedAt: record.updatedAt,
      inquiryId: record.inquiryId,
      reasonCode: record.reasonCode,
      attempt: record.attempt,
      newAttemptAllowed: record.newAttemptAllowed,
    };
  }

  /**
   * The whole record, expired or not: the KYC feature's conditional writes and an erasure (which
   * must still find the inquiry to redact) need the item that is there, not the one a user sees.
   */
  async getRecord(userId: string): Promise<KycRecord | undefined> {
    const item = await this.getItem(userId);
    return item === undefined ? undefined : toKycRecord(item);
  }

  private async getItem(userId: string): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: kycStateKey(userId), ConsistentRead: true }),
    );
    return Item;
  }
}
