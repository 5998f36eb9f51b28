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

describe('an address with an account is answered as a new one (ADR 0033)', () => {
  /** Every call the use case makes on its ports, by name, with the store's state before it. */
  function traced() {
    const s = setup();
    const calls: string[] = [];
    const trace = <T extends object>(name: string, target: T): T =>
      new Proxy(target, {
        get(object, property, receiver) {
          const value = Reflect.get(object, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            calls.push(`${name}.${String(property)}`);
            return value.apply(object, args);
          };
        },
      });
    const accept = acceptRegistration({
      store: trace('store', s.store),
      events: trace('events', s.events),
      clock: fixedClock('2026-11-21T07:00:00.000Z'),
      newId: sequentialIds('reg'),
    });
    return { ...s, calls, accept };
  }

  it('does the same work, in the same order, and reads nothing about the address', async () => {
    const fresh = traced();
    const known = traced();
    // The known address has registered before: its progress and its registration are on file.
    known.store.progress.set('ada@helix-labs.example', {
      email: 'ada@helix-labs.example',
      userId: 'auth0|ada',
    } as never);
    known.store.registrations.set('auth0|ada', { userId: 'auth0|ada' } as never);
    const answers = [
      await fresh.accept({ ...request, website: '' }, context),
      await known.accept({ ...request, website: '' }, context),
    ];
    expect(answers[0]).toEqual(answers[1]);
    expect(fresh.calls).toEqual(['store.saveRequest', 'events.publish']);
    expect(known.calls).toEqual(fresh.calls);
    expect(known.events.published).toEqual(fresh.events.published);
  });
});
