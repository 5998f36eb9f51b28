import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { businessDaysAfter, serviceRequestAnswerBusinessDays } from '#contracts/service-request.ts';
import { DynamoDbKycStateReader, kycStateKey } from '#lambdas/adapters/dynamodb-kyc-state-reader.ts';
import { DynamoDbOrganizations } from '#lambdas/adapters/dynamodb-organizations.ts';
import { DynamoDbRateLimiter } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { DynamoDbServiceRequests } from '#lambdas/adapters/dynamodb-service-requests.ts';
import { notifyServiceRequest } from '#lambdas/domain/account/notify.ts';
import type { Caller } from '#lambdas/domain/caller.ts';
import {
  OrganizationApprovalRequiredError,
  OrganizationMembershipEndedError,
  OrganizationMismatchError,
  RateLimitedError,
  ServiceActionNotOfferedError,
} from '#lambdas/domain/errors.ts';
import { listServiceRequests, requestService } from '#lambdas/domain/organization/service-requests.ts';
import type { EmailMessage, OnceMarker } from '#lambdas/domain/ports.ts';
import { signedInWriteLimits } from '#lambdas/domain/signed-in-limits.ts';
import { type RunningDynamoDb, startDynamoDb } from '#local/dynamodb.ts';
import { createTables, localDocumentClient } from '#tests/helpers/dynamodb.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { RecordingPublisher } from '../fakes.ts';

// The dashboards' service requests (ADR 0088) on DynamoDB Local with the real store, limiter and
// KYC reader: one open request per action and organization, only approved members, the event
// published once stored (again when the first publish failed), and one operations email per request.

const ORG = 'org_helix0000000001';
const FOUNDER = 'auth0|founder';
const COLLEAGUE = 'auth0|colleague';

let dynamodb: RunningDynamoDb;
let client: DynamoDBDocumentClient;
let run = 0;
let names: { submissions: string; kyc: string };
let events: RecordingPublisher;
let ids = 0;

beforeAll(async () => {
  dynamodb = await startDynamoDb({ port: await freePort(), tablePrefix: 'service-' });
  client = localDocumentClient(dynamodb.endpoint);
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await dynamodb?.close();
});

// A Friday morning: two business days on is Tuesday.
const clock = { at: new Date('2026-11-27T09:00:00.000Z'), now: () => clock.at };

const caller = (userId: string, organizationId = ORG): Caller => ({
  userId,
  issuer: 'https://tenant.test/',
  role: 'user',
  emailVerified: true,
  claims: {},
  organization: { id: organizationId, roles: ['org_member'] },
});

async function approve(userId: string) {
  await client.send(
    new PutCommand({
      TableName: names.kyc,
      Item: { ...kycStateKey(userId), userId, status: 'approved', version: 1 },
    }),
  );
}

beforeEach(async () => {
  run += 1;
  names = { submissions: `submissions-${run}`, kyc: `kyc-${run}` };
  await createTables(dynamodb.endpoint, { submissions: names.submissions, kycState: names.kyc });
  await new DynamoDbOrganizations(client, names.submissions).saveOnce({
    organizationId: ORG,
    displayName: 'Helix Labs',
    organizationType: 'defense',
    registeredBy: FOUNDER,
    email: 'founder@helix.example',
    createdAt: '2026-11-20T09:00:00.000Z',
  });
  await approve(FOUNDER);
  events = new RecordingPublisher();
});

function deps() {
  return {
    requests: new DynamoDbServiceRequests(client, names.submissions),
    organizations: new DynamoDbOrganizations(client, names.submissions),
    kyc: new DynamoDbKycStateReader(client, names.kyc),
    limiter: new DynamoDbRateLimiter(client, names.submissions, clock),
    events,
    clock,
    newId: () => `request-${++ids}`,
  };
}

describe('a service request (ADR 0088)', () => {
  it('is stored for the organization, published once, and listed with its state and answer date', async () => {
    const answer = await requestService(deps())({
      caller: caller(FOUNDER),
      organizationId: ORG,
      action: 'threat-scan',
    });
    expect(answer.created).toBe(true);
    expect(answer.request).toMatchObject({
      action: 'threat-scan',
      status: 'received',
      answerBy: '2026-12-01',
    });
    expect(events.published).toEqual([
      {
        detailType: 'ServiceRequestSubmitted',
        detail: expect.objectContaining({
          requestId: answer.request.requestId,
          organizationId: ORG,
          organizationName: 'Helix Labs',
          action: 'threat-scan',
          requestedBy: FOUNDER,
        }),
      },
    ]);
    expect(await listServiceRequests(deps())({ caller: caller(COLLEAGUE), organizationId: ORG })).toEqual([
      answer.request,
    ]);
  });

  it("answers a colleague's second request for the action with the open one, and publishes nothing more", async () => {
    await approve(COLLEAGUE);
    const first = await requestService(deps())({
      caller: caller(FOUNDER),
      organizationId: ORG,
      action: 'threat-scan',
    });
    const second = await requestService(deps())({
      caller: caller(COLLEAGUE),
      organizationId: ORG,
      action: 'threat-scan',
    });
    expect(second).toEqual({ created: false, request: first.request });
    expect(events.published).toHaveLength(1);
    const other = await requestService(deps())({
      caller: caller(COLLEAGUE),
      organizationId: ORG,
      action: 'intel-reports',
    });
    expect(other.created).toBe(true);
    expect(await listServiceRequests(deps())({ caller: caller(FOUNDER), organizationId: ORG })).toHaveLength(
      2,
    );
  });

  it('publishes again a request stored while the bus refused it, and only then marks it queued', async () => {
    events.failNext = 1;
    await expect(
      requestService(deps())({ caller: caller(FOUNDER), organizationId: ORG, action: 'threat-scan' }),
    ).rejects.toThrow(/EventBridge/);
    expect(events.published).toEqual([]);
    const again = await requestService(deps())({
      caller: caller(FOUNDER),
      organizationId: ORG,
      action: 'threat-scan',
    });
    expect(again.created).toBe(false);
    expect(events.published).toHaveLength(1);
    await requestService(deps())({ caller: caller(FOUNDER), organizationId: ORG, action: 'threat-scan' });
    expect(events.published).toHaveLength(1);
  });

  it('refuses a member whose verification is not approved, another organization and the other segment', async () => {
    const request = requestService(deps());
    await expect(
      request({ caller: caller(COLLEAGUE), organizationId: ORG, action: 'threat-scan' }),
    ).rejects.toThrow(OrganizationApprovalRequiredError);
    await expect(
      request({ caller: caller(FOUNDER, 'org_other'), organizationId: ORG, action: 'threat-scan' }),
    ).rejects.toThrow(OrganizationMismatchError);
    await expect(
      request({ caller: caller(FOUNDER), organizationId: ORG, action: 'market-report' }),
    ).rejects.toThrow(ServiceActionNotOfferedError);
    expect(await listServiceRequests(deps())({ caller: caller(FOUNDER), organizationId: ORG })).toEqual([]);
    expect(events.published).toEqual([]);
  });

  it('refuses a member an org_admin removed, though their token still names the organization', async () => {
    await approve(COLLEAGUE);
    await client.send(
      new PutCommand({
        TableName: names.submissions,
        Item: {
          pk: `ORGANIZATION#${ORG}`,
          sk: `MEMBER#${COLLEAGUE}`,
          userId: COLLEAGUE,
          memberStatus: 'removed',
        },
      }),
    );
    await expect(
      requestService(deps())({ caller: caller(COLLEAGUE), organizationId: ORG, action: 'threat-scan' }),
    ).rejects.toThrow(OrganizationMembershipEndedError);
    await expect(
      listServiceRequests(deps())({ caller: caller(COLLEAGUE), organizationId: ORG }),
    ).rejects.toThrow(OrganizationMembershipEndedError);
  });

  it('holds a member to their daily limit', async () => {
    const request = requestService(deps());
    for (let i = 0; i < signedInWriteLimits['service-request'].limit; i++) {
      await request({ caller: caller(FOUNDER), organizationId: ORG, action: 'threat-scan' });
    }
    await expect(
      request({ caller: caller(FOUNDER), organizationId: ORG, action: 'threat-scan' }),
    ).rejects.toThrow(RateLimitedError);
  });
});

describe('the answer date', () => {
  it.each([
    ['2026-11-27T09:00:00Z', '2026-12-01'], // Friday -> Tuesday
    ['2026-11-28T09:00:00Z', '2026-12-01'], // Saturday -> Tuesday
    ['2026-11-30T23:59:00Z', '2026-12-02'], // Monday -> Wednesday
  ])('%s is answered by %s', (from, by) => {
    expect(businessDaysAfter(new Date(from), serviceRequestAnswerBusinessDays)).toBe(by);
  });
});

describe("operations' email of a request", () => {
  it('is sent once per request id, with ids and our own action title, none of the requester words', async () => {
    const sent: EmailMessage[] = [];
    const taken = new Set<string>();
    const marker: OnceMarker = {
      take: async (id) => {
        if (taken.has(id)) return false;
        taken.add(id);
        return true;
      },
      release: async (id) => void taken.delete(id),
      complete: async () => undefined,
    };
    const notify = notifyServiceRequest({
      mailer: { send: async (message) => void sent.push(message) },
      marker,
      operationsEmail: 'ops@platform.example',
    });
    const detail = {
      requestId: 'request-1',
      organizationId: ORG,
      organizationName: 'Helix Labs',
      organizationType: 'defense' as const,
      action: 'threat-scan',
      requestedBy: FOUNDER,
      occurredAt: '2026-11-27T09:00:00.000Z',
      answerBy: '2026-12-01',
    };
    expect(await notify('event-1', detail)).toBe('sent');
    // The same request published again under a new event id (a retried publish).
    expect(await notify('event-2', detail)).toBe('duplicate');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'ops@platform.example',
      subject: 'Service request: Initialize Threat Scan (Helix Labs)',
    });
    expect(sent[0]?.text).toContain('Answer by: 2026-12-01');
  });
});
