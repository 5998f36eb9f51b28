import { describe, expect, it } from 'vitest';
import { acceptRegistration } from '#lambdas/domain/registration/accept-registration.ts';
import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';
import { FakeRegistrationStore, fixedClock } from '#tests/lambdas/domain/account/fakes.ts';
import { RecordingPublisher } from '#tests/lambdas/domain/fakes.ts';
import { sequentialIds } from '#tests/lambdas/domain/submissions/fakes.ts';

const request = sampleRegistrationRequest;
const context = { requestId: 'req-1', userAgent: 'Firefox', ipAddress: '203.0.113.7', locale: 'en' };

function setup() {
  const store = new FakeRegistrationStore();
  const events = new RecordingPublisher();
  const accept = acceptRegistration({
    store,
    events,
    clock: fixedClock('2026-11-21T07:00:00.000Z'),
    newId: sequentialIds('reg'),
  });
  return { store, events, accept };
}

describe('accepting a registration (the request path)', () => {
  it('stores the form and its context, then publishes only the registration id', async () => {
    const s = setup();
    expect(await s.accept({ ...request, website: '' }, context)).toEqual({
      outcome: 'accepted',
      registrationId: 'reg-1',
    });
    expect([...s.store.requests.values()]).toEqual([
      {
        registrationId: 'reg-1',
        email: 'ada@helix-labs.example',
        request,
        context,
        receivedAt: '2026-11-21T07:00:00.000Z',
        expiresAt: Date.parse('2026-11-28T07:00:00.000Z') / 1000,
      },
    ]);
    expect(s.events.published).toEqual([
      { detailType: 'RegistrationRequested', detail: { registrationId: 'reg-1' } },
    ]);
  });

  it('stores and publishes nothing when the honeypot is filled', async () => {
    const s = setup();
    expect(await s.accept({ ...request, website: 'https://spam.example' }, context)).toEqual({
      outcome: 'honeypot',
    });
    expect(s.store.requests.size).toBe(0);
    expect(s.events.published).toEqual([]);
  });

  it('treats a whitespace-only honeypot as empty (autofill), and accepts', async () => {
    const s = setup();
    expect((await s.accept({ ...request, website: '  ' }, context)).outcome).toBe('accepted');
  });
});
