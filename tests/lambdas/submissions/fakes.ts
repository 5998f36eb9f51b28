import { submissionKey } from '#lambdas/adapters/dynamodb-submission-store.ts';
import type { Clock, EmailMessage, Mailer } from '#lambdas/domain/ports.ts';
import type { SubmissionRecord, SubmissionStore } from '#lambdas/domain/submissions/ports.ts';

export class MemorySubmissionStore implements SubmissionStore {
  readonly items = new Map<string, SubmissionRecord>();

  async addOnce(record: SubmissionRecord): Promise<'added' | 'exists'> {
    const key = submissionKey(record);
    const id = `${key.pk}|${key.sk}`;
    if (this.items.has(id)) return 'exists';
    this.items.set(id, structuredClone(record));
    return 'added';
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
