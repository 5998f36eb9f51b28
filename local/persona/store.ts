import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PersonaInquiryStatus } from '#contracts/persona-webhook.ts';
import { newId, newSessionToken } from './http-util.ts';
import type { EmulatedVerification } from './verifications.ts';

export interface InquiryField {
  type: string;
  value: unknown;
}

export interface InquiryRecord {
  id: string;
  status: PersonaInquiryStatus;
  referenceId: string | null;
  templateId: string;
  environmentId: string;
  note: string | null;
  tags: string[];
  fields: Record<string, InquiryField>;
  sessionToken: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  markedForReviewAt: string | null;
  decisionedAt: string | null;
  expiredAt: string | null;
  redactedAt: string | null;
  /** The verifications run once the tester picked an outcome (absent in state saved before them). */
  verifications?: EmulatedVerification[];
}

/** The inquiry as Persona's API returns it: a JSON:API resource object with kebab-case keys. */
export function inquiryResource(inq: InquiryRecord): Record<string, unknown> {
  const field = (name: string) => inq.fields[name]?.value ?? null;
  return {
    type: 'inquiry',
    id: inq.id,
    attributes: {
      status: inq.status,
      'reference-id': inq.referenceId,
      note: inq.note,
      behaviors: {},
      tags: [...inq.tags],
      creator: 'API',
      'reviewer-comment': null,
      'created-at': inq.createdAt,
      'updated-at': inq.updatedAt,
      'started-at': inq.startedAt,
      'expires-at': null,
      'completed-at': inq.completedAt,
      'failed-at': inq.failedAt,
      'marked-for-review-at': inq.markedForReviewAt,
      'decisioned-at': inq.decisionedAt,
      'expired-at': inq.expiredAt,
      'redacted-at': inq.redactedAt,
      'previous-step-name': null,
      'next-step-name': null,
      'name-first': field('name-first'),
      'name-middle': field('name-middle'),
      'name-last': field('name-last'),
      birthdate: field('birthdate'),
      'email-address': field('email-address'),
      'phone-number': field('phone-number'),
      fields: structuredClone(inq.fields),
    },
    relationships: {
      account: { data: null },
      template: { data: null },
      'inquiry-template': { data: { type: 'inquiry-template', id: inq.templateId } },
      'inquiry-template-version': { data: null },
      transaction: { data: null },
      reviewer: { data: null },
      reports: { data: [] },
      verifications: {
        data: (inq.verifications ?? []).map((verification) => ({
          type: verification.type,
          id: verification.id,
        })),
      },
      sessions: { data: [] },
      documents: { data: [] },
      selfies: { data: [] },
    },
  };
}

interface IdempotencyEntry {
  fingerprint: string;
  status: number;
  body: unknown;
  expiresAt: number;
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export class InquiryStore {
  private readonly inquiries = new Map<string, InquiryRecord>();
  private readonly idempotency = new Map<string, IdempotencyEntry>();
  private lastTimeMs = 0;
  private readonly file: string | undefined;

  constructor(dataDir?: string) {
    if (dataDir !== undefined) {
      mkdirSync(dataDir, { recursive: true });
      this.file = join(dataDir, 'persona-inquiries.json');
      this.load();
    }
  }

  /** Strictly increasing ISO timestamps (ms precision) for inquiry and event times. */
  nextTime(): string {
    const now = Math.max(Date.now(), this.lastTimeMs + 1);
    this.lastTimeMs = now;
    return new Date(now).toISOString();
  }

  get(id: string): InquiryRecord | undefined {
    return this.inquiries.get(id);
  }

  list(): InquiryRecord[] {
    return [...this.inquiries.values()];
  }

  create(input: {
    templateId: string;
    environmentId: string;
    referenceId: string | null;
    fields?: Record<string, InquiryField>;
    note?: string | null;
    tags?: string[];
  }): InquiryRecord {
    const now = this.nextTime();
    const inquiry: InquiryRecord = {
      id: newId('inq'),
      status: 'created',
      referenceId: input.referenceId,
      templateId: input.templateId,
      environmentId: input.environmentId,
      note: input.note ?? null,
      tags: input.tags ?? [],
      fields: input.fields ?? {},
      sessionToken: newSessionToken(),
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      failedAt: null,
      markedForReviewAt: null,
      decisionedAt: null,
      expiredAt: null,
      redactedAt: null,
    };
    this.inquiries.set(inquiry.id, inquiry);
    this.save();
    return inquiry;
  }

  /** Applies a change and persists; returns the inquiry. */
  update(inquiry: InquiryRecord, change: (inq: InquiryRecord) => void): InquiryRecord {
    change(inquiry);
    this.save();
    return inquiry;
  }

  idempotentGet(key: string, fingerprint: string): IdempotencyEntry | 'conflict' | undefined {
    const entry = this.idempotency.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt < Date.now()) {
      this.idempotency.delete(key);
      return undefined;
    }
    return entry.fingerprint === fingerprint ? entry : 'conflict';
  }

  idempotentSet(key: string, fingerprint: string, status: number, body: unknown): void {
    this.idempotency.set(key, { fingerprint, status, body, expiresAt: Date.now() + IDEMPOTENCY_TTL_MS });
  }

  private load(): void {
    if (this.file === undefined) return;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return;
    }
    try {
      const saved = JSON.parse(text) as { inquiries?: InquiryRecord[] };
      for (const inquiry of saved.inquiries ?? []) this.inquiries.set(inquiry.id, inquiry);
    } catch (error) {
      console.warn(`[persona] ignoring unreadable ${this.file}: ${String(error)}`);
    }
  }

  private save(): void {
    if (this.file === undefined) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ inquiries: this.list() }, null, 2));
    renameSync(tmp, this.file);
  }
}
