import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { createTestUser, mailbox, managementToken } from '#tests/helpers/tokens.ts';

// Issue 11, items 4 and 5: legitimate bursts against the running local stack, through the web
// origin (the local CloudFront). Registrations are processed by the ProcessRegistration target,
// which the local bus runs concurrently, as EventBridge does. `npm test` runs smaller bursts;
// `npm run test:soak` (SOAK=1) the full counts. ADR 0036 records what is asserted.

const stack = inject('stack');
const db = stackDb(stack);
const soak = Boolean(process.env.SOAK);

let dir: string;
let stackFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bursts-'));
  stackFile = join(dir, 'stack.json');
  await writeFile(stackFile, JSON.stringify(stack));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${stack.web}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Mozilla/5.0 Firefox/128.0',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

interface Answer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
}

/** Every answer is a success or a refusal a client can act on: never a bare 5xx. */
function expectNoFailures(answers: Answer[], accepted: number) {
  const refused = answers.filter((answer) => answer.status !== accepted);
  for (const answer of refused) {
    expect(answer.status, answer.body).toBeOneOf([409, 429, 503]);
    expect(answer.contentType).toBe('application/problem+json');
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
}

/** The audit CLI as an auditor runs it, against this stack's DynamoDB. */
async function audit(args: string[]) {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/audit-consents.ts', ...args, '--format', 'json', '--stack', stackFile],
    { env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
  ).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
    throw new Error(`audit:consents exited ${error.code}: ${error.stderr ?? ''}`);
  });
  return {
    report: JSON.parse(stdout) as {
      summary: { records: number; subjects: number; chainRecords: number; breaks: number };
      records: ConsentRecord[];
    },
    stderr,
  };
}

async function chainOf(subjectId: string): Promise<ConsentRecord[]> {
  const result = await db.client.send(
    new QueryCommand({
      TableName: db.tableName('ConsentLedger'),
      KeyConditionExpression: 'subjectId = :s',
      ExpressionAttributeValues: { ':s': subjectId },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []) as ConsentRecord[];
}

/** Sequences 1..n, each record chained to the one before, and no predecessor claimed twice. */
function expectUnbrokenChain(records: ConsentRecord[]) {
  const sorted = [...records].sort((a, b) => a.sequence - b.sequence);
  expect(sorted.map((record) => record.sequence)).toEqual(sorted.map((_, index) => index + 1));
  sorted.forEach((record, index) => {
    expect(record.previousHash).toBe(index === 0 ? null : sorted[index - 1]?.hash);
  });
  const predecessors = sorted.map((record) => record.previousHash);
  expect(new Set(predecessors).size).toBe(predecessors.length);
}

const today = () => new Date().toISOString().slice(0, 10);

describe('consent ledger under concurrency (issue 11, item 5)', () => {
  const writes = 50;

  it(`records every accepted one of ${writes} concurrent consents of one person on one unbroken chain`, async () => {
    const user = await createTestUser(stack);
    const grant = {
      identity_verification_consent: true,
      biometric_data_consent: true,
      privacy_policy_consent: true,
      consent_type: 'identity_verification',
    };
    const answers = await Promise.all(
      Array.from({ length: writes }, async (_, index) =>
        answerOf(await post('/api/consents', { ...grant, locale: index % 2 ? 'de' : 'en' }, user.token)),
      ),
    );
    expectNoFailures(answers, 201);
    const acceptedIds = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => (JSON.parse(answer.body) as { consentId: string }).consentId);
    // A person double-clicking or with several tabs gets through; a flood of one chain is bounded.
    expect(acceptedIds.length).toBeGreaterThan(0);

    const chain = await chainOf(user.userId);
    // Every 201 is a record, and a refused write left nothing behind.
    expect(chain.map((record) => record.consentId).sort()).toEqual([...acceptedIds].sort());
    expectUnbrokenChain(chain);

    const { report } = await audit(['--user', user.userId]);
    expect(report.summary).toMatchObject({ records: acceptedIds.length, subjects: 1, breaks: 0 });
  });
});

describe('registration burst (issue 11, item 4)', () => {
  // Each repeated address is sent three times in the burst (two repeats): within the limit of
  // three "you already have an account" emails per address a day (ADR 0033), so every repeat
  // must get one (ADR 0036).
  const total = soak ? 200 : 40;
  const repeats = soak ? 20 : 4;
  const repeatsPerEmail = 2;

  const requestFor = (email: string, index: number) => ({
    responsibleName: `Burst Person ${index}`,
    responsibleTitle: 'Head of Research',
    responsibleEmail: email,
    responsiblePhone: '+49 30 1234567',
    organizationName: `Burst Labs ${index}`,
    organizationUrl: 'https://burst-labs.example',
    organizationType: 'academic',
    termsAgreed: true,
    privacyAgreed: true,
    nonHarmAgreed: true,
  });

  it(`gives ${total} concurrent registrations (${repeats} repeating an address) one account and one set of agreements per address, and the repeats their login instructions again`, async () => {
    const started = new Date().toISOString();
    const run = randomBytes(4).toString('hex');
    const emails = Array.from({ length: total - repeats }, (_, i) => `burst-${run}-${i}@burst-labs.example`);
    const repeated = emails.slice(0, repeats / repeatsPerEmail);
    const requests = [...emails];
    for (let i = requests.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [requests[i], requests[j]] = [requests[j] as string, requests[i] as string];
    }
    // Each repeat right behind the first request of its address, as a person pressing submit again
    // would send it: their processing overlaps. Some in another case (the address is normalised).
    for (const email of repeated) {
      requests.splice(requests.indexOf(email) + 1, 0, ...(Array(repeatsPerEmail).fill(email) as string[]));
    }
    const answers = await Promise.all(
      requests.map(async (email, index) =>
        answerOf(
          await post('/api/registrations', requestFor(index % 3 ? email : email.toUpperCase(), index)),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    expect(new Set(answers.map((answer) => answer.body))).toEqual(
      new Set([JSON.stringify({ success: true })]),
    );

    expect((await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' })).status).toBe(200);
    // Nothing was given up on: no registration of this burst went to the dead letters.
    const deadLetters = (await (await fetch(`${stack.api}/__local/dead-letters`)).json()) as {
      ruleId: string;
      at: string;
    }[];
    expect(
      deadLetters.filter((letter) => letter.ruleId === 'ProcessRegistration' && letter.at >= started),
    ).toEqual([]);

    // Exactly one identity-provider user per address.
    const token = await managementToken(stack);
    const userIds = new Map<string, string>();
    for (const email of emails) {
      const response = await managementFetch(
        `${stack.idp.issuer}api/v2/users-by-email?email=${encodeURIComponent(email)}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const users = (await response.json()) as { user_id: string }[];
      expect(users, email).toHaveLength(1);
      userIds.set(email, users[0]?.user_id ?? '');
    }

    // One account per address; a repeat of an address whose password link is still unused gets its
    // login instructions again (the "Resend" of /check-your-email is such a repeat: ADR 0086),
    // within the address's daily budget, never a second account.
    const mails = (await mailbox(stack)).filter((mail) => mail.destination.to.some((to) => to.includes(run)));
    for (const email of emails) {
      const subjects = mails
        .filter((mail) => mail.destination.to.includes(email))
        .map((mail) => mail.subject);
      const expected = repeated.includes(email) ? repeatsPerEmail : 0;
      expect(subjects, email).toEqual(Array(1 + expected).fill('Your login instructions'));
    }

    // One set of agreements per user, each user's chain unbroken.
    const ledger = (await db.scan('ConsentLedger')) as ConsentRecord[];
    for (const [email, userId] of userIds) {
      const records = ledger.filter((record) => record.subjectId === userId);
      expect(records.map((record) => record.purpose).sort(), email).toEqual([
        'non_harmful_use',
        'privacy_policy',
        'terms_of_service',
      ]);
      expect(records.every((record) => record.method === 'registration_wizard')).toBe(true);
      expectUnbrokenChain(records);
    }
    const { report } = await audit(['--purpose', 'terms_of_service', '--from', today(), '--to', today()]);
    expect(report.summary.breaks).toBe(0);
    const audited = new Set(report.records.map((record) => record.subjectId));
    expect([...userIds.values()].every((userId) => audited.has(userId))).toBe(true);
  }, 240_000);
});
