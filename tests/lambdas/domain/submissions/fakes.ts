import { submissionKey } from '#lambdas/adapters/dynamodb-submission-store.ts';
import type { Clock, EmailMessage, Mailer } from '#lambdas/domain/ports.ts';
import type {
  DeletionConfirmations,
  DeletionRequestRecord,
  OwnDeletionRequests,
  SubmissionRecord,
  SubmissionStore,
} from '#lambdas/domain/submissions/ports.ts';

export class MemorySubmissionStore implements SubmissionStore, DeletionConfirmations, OwnDeletionRequests {
  readonly items = new Map<string, SubmissionRecord>();

  async addOnce(record: SubmissionRecord): Promise<'added' | 'exists'> {
    const key = submissionKey(record);
    const id = `${key.pk}|${key.sk}`;
    if (this.items.has(id)) return 'exists';
    this.items.set(id, structuredClone(record));
    return 'added';
  }

  /** The same conditions as the DynamoDB adapter's conditional update. */
  async confirm(
    requestId: string,
    confirmation: { tokenHash: string; now: string; dueBy: string },
  ): Promise<DeletionRequestRecord | undefined> {
    const id = `DELETION#${requestId}|REQUEST`;
    const record = this.items.get(id);
    if (
      record?.kind !== 'deletion_request' ||
      record.status !== 'unconfirmed' ||
      record.confirmationTokenHash !== confirmation.tokenHash ||
      !(record.confirmBy !== undefined && record.confirmBy > confirmation.now)
    )
      return undefined;
    const { confirmationTokenHash: _hash, expiresAt: _expires, ...rest } = record;
    const confirmed: DeletionRequestRecord = {
      ...rest,
      status: 'received',
      confirmedAt: confirmation.now,
      confirmedBy: 'email_link',
      dueBy: confirmation.dueBy,
    };
    this.items.set(id, confirmed);
    return confirmed;
  }

  /** The adapter's rule: one pending own request per account. */
  async pendingOf(userId: string): Promise<DeletionRequestRecord | undefined> {
    return this.all().find(
      (r): r is DeletionRequestRecord =>
        r.kind === 'deletion_request' &&
        r.userId === userId &&
        (r.status === 'received' || r.status === 'in_progress'),
    );
  }

  async pendingById(userId: string, requestId: string): Promise<DeletionRequestRecord | undefined> {
    const pending = await this.pendingOf(userId);
    return pending?.requestId === requestId ? pending : undefined;
  }

  async addOwn(record: DeletionRequestRecord & { userId: string }): Promise<DeletionRequestRecord> {
    const pending = await this.pendingOf(record.userId);
    if (pending) return pending;
    await this.addOnce(record);
    return record;
  }

  async cancelOwn(userId: string, requestId: string, now: string) {
    const pending = await this.pendingOf(userId);
    if (pending?.requestId !== requestId) return 'not_found' as const;
    if (pending.status !== 'received') return 'not_cancellable' as const;
    this.items.set(`DELETION#${requestId}|REQUEST`, { ...pending, status: 'cancelled', cancelledAt: now });
    return 'cancelled' as const;
  }

  all(): SubmissionRecord[] {
    return [...this.items.values()];
  }
}

export class MemoryMailer implements Mailer {
  readonly sent: EmailMessage[] = [];
  failWith: Error | undefined;

  async send(message: EmailMessage): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.sent.push(message);
  }
}

export const fixedClock = (iso: string): Clock => ({ now: () => new Date(iso) });

export function sequentialIds(prefix = 'id'): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}
