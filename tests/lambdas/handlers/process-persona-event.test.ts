import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PersonaEventReceived } from '#contracts/events.ts';
import type {
  PersonaEventReceivedEvent,
  ProcessPersonaEventHandler,
} from '#lambdas/handlers/process-persona-event.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { metrics } from '#lambdas/runtime/metrics.ts';
import { lambdaContext } from '#tests/fixtures/events/http-api-event.ts';
import { approvedByPersona, localKycTables } from '#tests/helpers/kyc-table.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';

// The EventBridge target behind the webhook: what the webhook handler used to do synchronously,
// now with EventBridge's retries. A throw means "retry me"; everything else must return.

const userId = 'auth0|user-1';
const inquiryId = 'inq_1';
const clock = { now: () => new Date('2026-11-21T07:00:00.000Z') };

let createHandler: typeof import('#lambdas/handlers/process-persona-event.ts').createProcessPersonaEventHandler;

beforeAll(async () => {
  // The module wires its AWS adapters at import; the tests use the factory with fakes.
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    KYC_STATE_TABLE: 'kyc-test',
    EVENT_BUS_NAME: 'bus-test',
  });
  ({ createProcessPersonaEventHandler: createHandler } = await import(
    '#lambdas/handlers/process-persona-event.ts'
  ));
});

afterEach(() => {
  vi.restoreAllMocks();
});

const kycTables = localKycTables();

async function setup() {
  const store = await kycTables.newStore();
  await store.seed({ userId, inquiryId });
  const events = new RecordingPublisher();
  const handler: ProcessPersonaEventHandler = createHandler({ store, events, clock });
  return { store, events, handler };
}

const detail = (name: string, second: number, overrides: Partial<PersonaEventReceived> = {}) => ({
  eventId: `evt_${name}_${second}`,
  name,
  createdAt: `2026-11-21T06:00:${String(second).padStart(2, '0')}.000000Z`,
  inquiryId,
  inquiryStatus: 'completed',
  referenceId: userId,
  ...overrides,
});

let busEventCount = 0;
const busEvent = (body: unknown): PersonaEventReceivedEvent => ({
  id: `bus-${++busEventCount}`,
  'detail-type': 'PersonaEventReceived',
  source: 'platform.kyc',
  detail: body,
});

const deliver = (handler: ProcessPersonaEventHandler, body: unknown) =>
  handler(busEvent(body), lambdaContext);

describe('process-persona-event', () => {
  it('applies inquiry.approved: status, history, KycStatusChanged on the bus, outbox marked published', async () => {
    const { store, events, handler } = await setup();
    await deliver(handler, detail('inquiry.approved', 1));
    expect(store.states.get(userId)).toMatchObject({
      status: 'approved',
      decidedBy: 'persona',
      lastEventId: 'evt_inquiry.approved_1',
    });
    expect(store.history).toEqual([
      expect.objectContaining({
        from: 'not_started',
        to: 'approved',
        by: 'persona',
        reason: 'inquiry.approved',
      }),
    ]);
    expect(events.published).toEqual([approvedByPersona(store, { userId, inquiryId, at: clock.now() })]);
    expect([...store.outbox.values()].every((item) => item.publishedAt !== null)).toBe(true);
  });

  it('applies the same event delivered 10 times at once exactly once', async () => {
    const { store, events, handler } = await setup();
    const body = detail('inquiry.completed', 1);
    await Promise.all(Array.from({ length: 10 }, () => deliver(handler, body)));
    expect(store.states.get(userId)?.status).toBe('pending');
    expect(store.history).toHaveLength(1);
    expect(store.outbox.size).toBe(1);
    expect(events.published).toHaveLength(1);
  });

  it('changes nothing when an event is delivered again later', async () => {
    const { store, events, handler } = await setup();
    const body = detail('inquiry.declined', 1);
    await deliver(handler, body);
    const version = store.states.get(userId)?.version;
    await deliver(handler, body);
    expect(store.states.get(userId)?.version).toBe(version);
    expect(store.history).toHaveLength(1);
    expect(events.published).toHaveLength(1);
  });

  it('does not let an event older than the last applied one change the status', async () => {
    const { store, events, handler } = await setup();
    await deliver(handler, detail('inquiry.approved', 5));
    await deliver(handler, detail('inquiry.declined', 3));
    expect(store.states.get(userId)?.status).toBe('approved');
    expect(store.states.get(userId)?.lastEventId).toBe('evt_inquiry.approved_5');
    expect(events.published).toHaveLength(1);
  });

  it.each([
    ['an inquiry this backend did not create', { inquiryId: 'inq_foreign' }, 'unknown_inquiry'],
    ['a reference id that is not the inquiry owner', { referenceId: 'auth0|attacker' }, 'reference_mismatch'],
    ['a reference id over 2 KB (ADR 0071)', { referenceId: 'x'.repeat(2100) }, 'reference_mismatch'],
  ])(
    'ignores an event for %s, logging a security event, without failing the delivery',
    async (_name, overrides, reason) => {
      const { store, events, handler } = await setup();
      const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
      await expect(deliver(handler, detail('inquiry.approved', 1, overrides))).resolves.toBeUndefined();
      expect(store.states.get(userId)).toMatchObject({ status: 'not_started', version: 1 });
      expect(store.events.size).toBe(0);
      expect(events.published).toHaveLength(0);
      expect(warn).toHaveBeenCalledWith(
        'security event: webhook_ignored',
        expect.objectContaining({ security: true, reason, eventId: 'evt_inquiry.approved_1' }),
      );
    },
  );

  it.each([
    ['not an object', 'inquiry.approved'],
    ['missing the inquiry id', { ...detail('inquiry.approved', 1), inquiryId: undefined }],
    [
      'a time that is not normalised (string order would not be time order)',
      detail('inquiry.approved', 1, { createdAt: '2026-11-21T06:00:01Z' }),
    ],
    ['an empty event id', detail('inquiry.approved', 1, { eventId: '' })],
  ])('drops and logs a detail that is %s, without throwing or touching the state', async (_name, body) => {
    const { store, events, handler } = await setup();
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const read = vi.spyOn(store, 'readForEvent');
    const mapping = vi.spyOn(store, 'findInquiryOwner');
    await expect(deliver(handler, body)).resolves.toBeUndefined();
    expect(read).not.toHaveBeenCalled();
    expect(mapping).not.toHaveBeenCalled();
    expect(store.states.get(userId)).toMatchObject({ status: 'not_started', version: 1 });
    expect(events.published).toHaveLength(0);
    expect(error).toHaveBeenCalledWith('invalid PersonaEventReceived event dropped', expect.anything());
  });

  it('throws when the table fails, so EventBridge retries the event, and a retry applies it', async () => {
    const { store, handler } = await setup();
    vi.spyOn(store, 'applyChange').mockRejectedValueOnce(new Error('ProvisionedThroughputExceededException'));
    const body = detail('inquiry.approved', 1);
    await expect(deliver(handler, body)).rejects.toThrow('ProvisionedThroughputExceededException');
    expect(store.states.get(userId)?.status).toBe('not_started');
    await deliver(handler, body);
    expect(store.states.get(userId)?.status).toBe('approved');
    expect(store.history).toHaveLength(1);
  });

  it('keeps the change and does not throw when publishing KycStatusChanged fails: the outbox relay has it', async () => {
    const { store, events, handler } = await setup();
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
    events.failNext = 1;
    await expect(deliver(handler, detail('inquiry.declined', 1))).resolves.toBeUndefined();
    expect(store.states.get(userId)?.status).toBe('rejected');
    expect([...store.outbox.values()]).toEqual([expect.objectContaining({ publishedAt: null })]);
  });

  it('flushes the metrics it counted on every invocation (an event target has no httpHandler to do it)', async () => {
    const { handler } = await setup();
    const flush = vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics);
    const body = detail('inquiry.approved', 1);
    await deliver(handler, body); // KycStatusChanged
    await deliver(handler, body); // WebhookDuplicate
    expect(flush).toHaveBeenCalledTimes(2);
  });
});
