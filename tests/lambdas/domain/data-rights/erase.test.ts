import { beforeEach, describe, expect, it } from 'vitest';
import { deletionRequestRetentionYears } from '#contracts/retention.ts';
import { type AdminAuditFacts, chainEntry } from '#lambdas/domain/admin-audit/trail.ts';
import {
  DeletionRequestNotConfirmedError,
  DeletionRequestNotFoundError,
  eraseRequestedData,
} from '#lambdas/domain/data-rights/erase.ts';
import type {
  DeletedEntry,
  DeletionRequests,
  ErasureOutcome,
  StoredDeletionRequest,
  SubmissionRef,
  SubmissionsByEmail,
} from '#lambdas/domain/data-rights/ports.ts';
import type { DirectoryUser } from '#lambdas/domain/ports.ts';
import { policyFacts } from '#web/content/pages/legal/facts.ts';

// The erasure use case against in-memory stores: what goes, what stays, and that it is safe to rerun.

class MemorySubmissions implements SubmissionsByEmail, DeletionRequests {
  readonly items = new Map<string, SubmissionRef & { email?: string }>();
  readonly requests = new Map<string, StoredDeletionRequest>();
  failDeleteOf: string | undefined;

  async listByEmail(email: string) {
    return [...this.items.values()].filter((item) => item.email === email);
  }
  async delete(key: { pk: string; sk: string }) {
    if (this.failDeleteOf === key.pk) throw new Error('throttled');
    this.items.delete(`${key.pk}|${key.sk}`);
  }
  async get(requestId: string) {
    return structuredClone(this.requests.get(requestId));
  }
  async markInProgress(
    requestId: string,
    progress: { userIds: string[]; planned: DeletedEntry[]; startedAt: string },
  ) {
    const request = this.requests.get(requestId);
    if (!request) throw new Error('missing');
    this.requests.set(requestId, { ...request, ...progress, status: 'in_progress' });
  }
  /** Each completed request's expiry (epoch seconds), as the table's TTL attribute holds it. */
  readonly expiries = new Map<string, number>();
  async complete(requestId: string, outcome: ErasureOutcome, expiresAt: number) {
    const request = this.requests.get(requestId);
    if (!request) throw new Error('missing');
    this.requests.set(requestId, { ...request, ...outcome, status: 'completed' });
    this.expiries.set(requestId, expiresAt);
  }
}

class MemoryDirectory {
  readonly users = new Map<string, DirectoryUser>();
  async findByEmail(email: string) {
    return [...this.users.values()].find((user) => user.email === email);
  }
  async delete(userId: string) {
    this.users.delete(userId);
  }
}

/** The admin trail as the erasure sees it: what it appended, and an append that can fail. */
class MemoryTrail {
  readonly entries: AdminAuditFacts[] = [];
  failing = false;
  async append(facts: AdminAuditFacts) {
    if (this.failing) throw new Error('trail unavailable');
    this.entries.push(facts);
    return chainEntry(facts, undefined, { entryId: `e${this.entries.length}`, recordedAt: now });
  }
}

const operatorId = 'arn:aws:sts::123456789012:assumed-role/Operators/ada';
const email = 'ada@analytical.example';
let trail: MemoryTrail;
let submissions: MemorySubmissions;
let directory: MemoryDirectory;
let redacted: string[];
let ledger: Map<string, { purpose: string; recordedAt: string }[]>;
let kyc: Map<string, { status: string; inquiryId: string | null }>;
/** The inquiries recorded against each person (`INQUIRY#` items in their partition). */
let inquiries: Map<string, string[]>;
/** Expiry (epoch seconds) per record group, set once as the DynamoDB adapter sets it. */
let expiries: Map<string, number>;
/** The erased-account markers the signed-in screens read (ADR 0059), with their expiry. */
let erasedMarkers: Map<string, number>;
let now: Date;

function erase() {
  return eraseRequestedData({
    requests: submissions,
    submissions,
    users: directory,
    kyc: {
      getRecord: async (userId) => kyc.get(userId),
      listInquiries: async (userId) => (inquiries.get(userId) ?? []).map((inquiryId) => ({ inquiryId })),
    },
    consents: { listBySubject: async (subjectId) => ledger.get(subjectId) ?? [] },
    persona: {
      redactInquiry: async (id) => {
        redacted.push(id);
      },
    },
    retention: {
      expireConsentRecords: async (subjectId, expiresAt) => {
        if (!expiries.has(`ledger:${subjectId}`)) expiries.set(`ledger:${subjectId}`, expiresAt);
      },
      expireKycRecords: async (userId, inquiryIds, expiresAt) => {
        for (const key of [`kyc:USER#${userId}`, ...inquiryIds.map((id) => `kyc:INQUIRY#${id}`)])
          if (!expiries.has(key)) expiries.set(key, expiresAt);
      },
    },
    accounts: {
      markErased: async (userId, expiresAt) => {
        erasedMarkers.set(userId, expiresAt);
      },
    },
    clock: { now: () => now },
    trail,
    operatorId,
  });
}

const epoch = (iso: string) => Date.parse(iso) / 1000;

beforeEach(() => {
  now = new Date('2026-04-01T09:00:00.000Z');
  trail = new MemoryTrail();
  expiries = new Map();
  erasedMarkers = new Map();
  submissions = new MemorySubmissions();
  directory = new MemoryDirectory();
  redacted = [];
  ledger = new Map([['auth0|ada', [{ purpose: 'terms_of_service', recordedAt: '2026-01-01T00:00:00Z' }]]]);
  kyc = new Map([['auth0|ada', { status: 'approved', inquiryId: 'inq_ada' }]]);
  inquiries = new Map([['auth0|ada', ['inq_ada']]]);
  directory.users.set('auth0|ada', {
    userId: 'auth0|ada',
    email,
    emailVerified: true,
    name: 'Ada',
    appMetadata: {},
  });
  for (const [pk, kind] of [
    ['REGISTRATION#1', 'registration'],
    ['WAITLIST#ada', 'waitlist'],
    ['CONTACT#2', 'contact_message'],
    ['DELETION#req-1', 'deletion_request'],
  ] as const) {
    submissions.items.set(`${pk}|S`, { pk, sk: 'S', kind, email });
  }
  submissions.items.set('CONTACT#other|S', {
    pk: 'CONTACT#other',
    sk: 'S',
    kind: 'contact_message',
    email: 'x@y.example',
  });
  submissions.requests.set('req-1', {
    kind: 'deletion_request',
    requestId: 'req-1',
    email,
    status: 'received',
    receivedAt: '2026-03-30T00:00:00.000Z',
    confirmedAt: '2026-03-30T00:10:00.000Z',
    confirmedBy: 'email_link',
    dueBy: '2026-04-29',
  });
});

describe('erasing the data of a deletion request', () => {
  it('deletes the account and the submissions of the address, redacts the inquiry, keeps the rest', async () => {
    const result = await erase()('req-1');
    expect(result.kind).toBe('completed');
    expect(directory.users.size).toBe(0);
    expect(redacted).toEqual(['inq_ada']);
    expect([...submissions.items.keys()].sort()).toEqual(['CONTACT#other|S', 'DELETION#req-1|S']);
    const request = submissions.requests.get('req-1');
    expect(request).toMatchObject({ status: 'completed', completedAt: '2026-04-01T09:00:00.000Z' });
    expect(request?.deleted?.map((d) => `${d.store}:${d.kind}`)).toEqual([
      'submissions:registration',
      'submissions:waitlist',
      'submissions:contact_message',
      'persona:kyc_inquiry',
      'identityProvider:user_account',
    ]);
    expect(request?.kept?.map((k) => k.kind).sort()).toEqual([
      'consent_record',
      'deletion_request',
      'kyc_decision',
    ]);
    expect(request?.kept?.every((k) => k.reason.length > 20)).toBe(true);
    // The account's tokens may outlive it: the signed-in screens see the marker for a week.
    expect(Object.fromEntries(erasedMarkers)).toEqual({
      'auth0|ada': epoch('2026-04-08T09:00:00.000Z'),
    });
  });

  it('sets the expiry of what it keeps: the consent records and the KYC records, the policy periods after the relationship ends', async () => {
    await erase()('req-1');
    expect(Object.fromEntries(expiries)).toEqual({
      'ledger:auth0|ada': epoch(`${2026 + policyFacts.contractRetentionYears}-04-01T09:00:00.000Z`),
      'kyc:USER#auth0|ada': epoch(`${2026 + policyFacts.kycRetentionYears}-04-01T09:00:00.000Z`),
      'kyc:INQUIRY#inq_ada': epoch(`${2026 + policyFacts.kycRetentionYears}-04-01T09:00:00.000Z`),
    });
    // The answered request itself goes after the retention table's period (ADR 0077).
    expect(submissions.expiries.get('req-1')).toBe(
      epoch(`${2026 + deletionRequestRetentionYears}-04-01T09:00:00.000Z`),
    );
    const kept = submissions.requests.get('req-1')?.kept ?? [];
    expect(kept.find((k) => k.store === 'kycState')?.retainUntil).toBe(
      `${2026 + policyFacts.kycRetentionYears}-04-01T09:00:00.000Z`,
    );
  });

  it('redacts and expires every inquiry of a person who failed once, retried and was approved', async () => {
    kyc.set('auth0|ada', { status: 'approved', inquiryId: 'inq_second' });
    inquiries.set('auth0|ada', ['inq_first', 'inq_second']);
    await erase()('req-1');
    expect(redacted).toEqual(['inq_first', 'inq_second']);
    const until = epoch(`${2026 + policyFacts.kycRetentionYears}-04-01T09:00:00.000Z`);
    expect(expiries.get('kyc:INQUIRY#inq_first')).toBe(until);
    expect(expiries.get('kyc:INQUIRY#inq_second')).toBe(until);
    const persona = (submissions.requests.get('req-1')?.deleted ?? []).filter((d) => d.store === 'persona');
    expect(persona.map((d) => `${d.action}:${d.key}`)).toEqual(['redacted:inq_first', 'redacted:inq_second']);
  });

  it('does not report an inquiry as redacted when Persona refused, and redacts it on the rerun', async () => {
    kyc.set('auth0|ada', { status: 'approved', inquiryId: 'inq_second' });
    inquiries.set('auth0|ada', ['inq_first', 'inq_second']);
    const deps = erase();
    let failing = true;
    const flaky = eraseRequestedData({
      requests: submissions,
      submissions,
      users: directory,
      kyc: {
        getRecord: async (userId) => kyc.get(userId),
        listInquiries: async (userId) => (inquiries.get(userId) ?? []).map((inquiryId) => ({ inquiryId })),
      },
      consents: { listBySubject: async (subjectId) => ledger.get(subjectId) ?? [] },
      persona: {
        redactInquiry: async (id) => {
          if (failing && id === 'inq_second') throw new Error('persona unavailable');
          redacted.push(id);
        },
      },
      retention: { expireConsentRecords: async () => {}, expireKycRecords: async () => {} },
      accounts: { markErased: async () => {} },
      clock: { now: () => now },
      trail,
      operatorId,
    });
    await expect(flaky('req-1')).rejects.toThrow('persona unavailable');
    expect(submissions.requests.get('req-1')?.status).toBe('in_progress');
    expect(submissions.requests.get('req-1')?.deleted).toBeUndefined();
    expect(directory.users.size).toBe(1);
    failing = false;
    await deps('req-1');
    expect(redacted).toEqual(['inq_first', 'inq_first', 'inq_second']);
    expect(submissions.requests.get('req-1')?.status).toBe('completed');
  });

  it('counts the relationship from the first run when an interrupted erasure is finished later', async () => {
    submissions.failDeleteOf = 'CONTACT#2';
    await expect(erase()('req-1')).rejects.toThrow('throttled');
    expect(expiries.size).toBe(0);
    submissions.failDeleteOf = undefined;
    now = new Date('2026-04-03T10:00:00.000Z');
    await erase()('req-1');
    expect(expiries.get('ledger:auth0|ada')).toBe(
      epoch(`${2026 + policyFacts.contractRetentionYears}-04-01T09:00:00.000Z`),
    );
  });

  it('records the run in the admin trail once: the operator, the request, counts and no contents', async () => {
    kyc.set('auth0|ada', { status: 'approved', inquiryId: 'inq_second' });
    inquiries.set('auth0|ada', ['inq_first', 'inq_second']);
    await erase()('req-1');
    expect(trail.entries).toHaveLength(1);
    const [entry] = trail.entries;
    expect(entry).toMatchObject({
      actorType: 'operator',
      actorId: operatorId,
      action: 'erasure_run',
      targetType: 'deletion_request',
      targetId: 'req-1',
      reasonCode: null,
      details: { accounts: 1, inquiriesRedacted: 2, startedAt: '2026-04-01T09:00:00.000Z' },
    });
    expect(entry?.reason).toMatch(/^Data-deletion request confirmed by its address's owner at /);
    expect(JSON.stringify(entry)).not.toContain(email);
    // A rerun of a completed request does nothing, so it records nothing.
    await erase()('req-1');
    expect(trail.entries).toHaveLength(1);
  });

  it('leaves the request open when the trail refuses the entry, and records the run on the rerun', async () => {
    trail.failing = true;
    await expect(erase()('req-1')).rejects.toThrow('trail unavailable');
    expect(submissions.requests.get('req-1')?.status).toBe('in_progress');
    trail.failing = false;
    await erase()('req-1');
    expect(submissions.requests.get('req-1')?.status).toBe('completed');
    expect(trail.entries.map((entry) => entry.action)).toEqual(['erasure_run']);
  });

  it('changes nothing on a dry run, and lists what it would do', async () => {
    const result = await erase()('req-1', { dryRun: true });
    expect(result.kind).toBe('dry-run');
    if (result.kind !== 'dry-run') return;
    expect(result.plan.deleteSubmissions).toHaveLength(3);
    expect(directory.users.size).toBe(1);
    expect(redacted).toEqual([]);
    expect(submissions.items.size).toBe(5);
    expect(submissions.requests.get('req-1')?.status).toBe('received');
    expect(expiries.size).toBe(0);
  });

  it('does nothing the second time and reports the first outcome', async () => {
    const first = await erase()('req-1');
    const second = await erase()('req-1');
    expect(second.kind).toBe('already-completed');
    if (first.kind !== 'completed' || second.kind !== 'already-completed') return;
    expect(second.outcome).toEqual(first.outcome);
    expect(redacted).toEqual(['inq_ada']);
  });

  it('finishes after an interrupted run, still reporting what the first run removed and the kept records', async () => {
    submissions.failDeleteOf = 'CONTACT#2';
    await expect(erase()('req-1')).rejects.toThrow('throttled');
    expect(submissions.requests.get('req-1')?.status).toBe('in_progress');
    submissions.failDeleteOf = undefined;
    // The account still exists here (it goes last); simulate the worst case, where it is already gone.
    directory.users.clear();
    const result = await erase()('req-1');
    expect(result.kind).toBe('completed');
    const request = submissions.requests.get('req-1');
    expect(request?.deleted?.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['registration', 'waitlist', 'contact_message', 'user_account', 'kyc_inquiry']),
    );
    // The subject id recorded by the first run still finds the ledger and KYC records to keep.
    expect(request?.kept?.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['consent_record', 'kyc_decision']),
    );
    expect([...submissions.items.keys()].sort()).toEqual(['CONTACT#other|S', 'DELETION#req-1|S']);
  });

  it('completes a request for an address without an account, deleting its submissions only', async () => {
    directory.users.clear();
    const result = await erase()('req-1');
    expect(result.kind).toBe('completed');
    expect(redacted).toEqual([]);
    expect(submissions.requests.get('req-1')?.kept?.map((k) => k.kind)).toEqual(['deletion_request']);
  });

  it.each([
    ['not yet confirmed (its link still works)', '2026-04-01T12:00:00.000Z', false],
    ['never confirmed, its link expired', '2026-04-01T08:00:00.000Z', true],
  ])('refuses a request %s, even as a dry run, and changes nothing', async (_, confirmBy, expired) => {
    submissions.requests.set('req-1', {
      kind: 'deletion_request',
      requestId: 'req-1',
      email,
      status: 'unconfirmed',
      receivedAt: '2026-03-31T12:00:00.000Z',
      confirmationTokenHash: 'f'.repeat(64),
      confirmBy,
    });
    for (const options of [{ dryRun: true }, {}]) {
      const refusal = await erase()('req-1', options).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(DeletionRequestNotConfirmedError);
      expect((refusal as DeletionRequestNotConfirmedError).expired).toBe(expired);
      expect((refusal as Error).message).toMatch(expired ? /expired/ : /not confirmed yet/);
    }
    expect(directory.users.size).toBe(1);
    expect(submissions.items.size).toBe(5);
    expect(submissions.requests.get('req-1')?.status).toBe('unconfirmed');
  });

  it('refuses an unknown request id', async () => {
    await expect(erase()('nope')).rejects.toBeInstanceOf(DeletionRequestNotFoundError);
  });
});
