import { describe, expect, it } from 'vitest';
import { personaEventReceived } from '#contracts/events.ts';
import { flaggedChecksMax } from '#contracts/flagged-checks.ts';
import {
  normaliseInstant,
  personaEventFromReceived,
  receivedFromWebhook,
} from '#lambdas/domain/kyc/persona-event.ts';
import { personaEvent, personaVerification } from '#scripts/lib/persona-events.ts';

describe('normaliseInstant', () => {
  it('keeps microseconds so string order is time order', () => {
    expect(normaliseInstant('2026-01-05T18:50:02.000123Z')).toBe('2026-01-05T18:50:02.000123Z');
    expect(normaliseInstant('2026-01-05T18:50:02Z')).toBe('2026-01-05T18:50:02.000000Z');
    expect(normaliseInstant('2026-01-05T20:50:02.5+02:00')).toBe('2026-01-05T18:50:02.500000Z');
  });
});

describe("the failed checks of a webhook's included verifications (ADR 0082's amendment)", () => {
  const user = { userId: 'auth0|u1', inquiryId: 'inq_1' };
  const at = new Date('2026-11-21T06:00:00.000Z');
  const read = (included: readonly unknown[]) => {
    const reading = receivedFromWebhook(
      JSON.parse(personaEvent('inquiry.marked-for-review', user, at, included)),
    );
    if (reading.kind !== 'event') throw new Error(`not read as an event: ${reading.kind}`);
    return reading.event;
  };

  it('carries the names of the failed checks on the bus event, no reasons, nothing else of the payload', () => {
    const event = read([
      personaVerification('government-id', { passed: ['id_tamper_detection', 'id_expired'] }),
      personaVerification('selfie', {
        failed: ['selfie_id_comparison'],
        passed: ['selfie_liveness_detection'],
      }),
      { type: 'document/government-id', id: 'doc_1', attributes: { 'front-photo': { url: 'x' } } },
    ]);
    expect(event.flaggedChecks).toEqual([{ type: 'selfie', name: 'selfie_id_comparison' }]);
    expect(personaEventReceived.parse(event)).toEqual(event);
    expect(JSON.stringify(event)).not.toContain('did not pass');
    expect(personaEventFromReceived(event).flaggedChecks).toEqual(event.flaggedChecks);
  });

  it('says none failed when the verifications all passed, and nothing when there was no verification', () => {
    expect(read([personaVerification('selfie', { passed: ['selfie_id_comparison'] })]).flaggedChecks).toEqual(
      [],
    );
    const without = read([{ type: 'document/government-id', id: 'doc_1' }]);
    expect(without).not.toHaveProperty('flaggedChecks');
    expect(read([])).not.toHaveProperty('flaggedChecks');
  });

  it(`keeps at most ${flaggedChecksMax}, each once`, () => {
    const names = Array.from({ length: 15 }, (_, i) => `check_${i}`);
    const event = read([
      personaVerification('database', { failed: names }),
      personaVerification('database', { failed: names }),
    ]);
    expect(event.flaggedChecks).toEqual(
      names.slice(0, flaggedChecksMax).map((name) => ({ type: 'database', name })),
    );
    expect(personaEventReceived.safeParse(event).success).toBe(true);
  });

  it('reads a malformed included defensively: the event is still read, the malformed parts are passed over', () => {
    const envelope = (included: unknown) => {
      const body = JSON.parse(personaEvent('inquiry.completed', user, at));
      body.data.attributes.payload.included = included;
      return receivedFromWebhook(body);
    };
    for (const included of ['verifications', 42, null, { type: 'verification/selfie' }, [null, 'x', 7]]) {
      const reading = envelope(included);
      expect(reading.kind, JSON.stringify(included)).toBe('event');
      if (reading.kind === 'event') expect(reading.event).not.toHaveProperty('flaggedChecks');
    }
    const reading = envelope([
      { type: 'verification/selfie', attributes: { checks: 'all failed' } },
      { type: 'verification/government-id', attributes: null },
      {
        type: 'verification/government-id',
        attributes: {
          checks: [
            null,
            { name: 42, status: 'failed' },
            { name: 'id_expired' },
            { name: 'Robert"); DROP TABLE', status: 'failed' },
            { name: 'x'.repeat(300), status: 'failed' },
            { name: 'id_tamper_detection', status: 'failed', reasons: 'not a list' },
          ],
        },
      },
      { type: 'verification/<script>', attributes: { checks: [{ name: 'a', status: 'failed' }] } },
    ]);
    expect(reading).toMatchObject({
      kind: 'event',
      event: { flaggedChecks: [{ type: 'government-id', name: 'id_tamper_detection' }] },
    });
  });
});
