import { randomBytes } from 'node:crypto';
import type { InvocationCalls } from '#local/gateway/dynamodb-calls.ts';
import type { StackInfo } from '#local/stack.ts';
import {
  enrolledUser,
  identityVerificationConsent,
  personaEvent,
  sendWebhook,
  webApi,
} from '#scripts/lib/local-stack-client.ts';
import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';

// Issue 13: DynamoDB calls per request, counted on the local stack by the client middleware its
// wiring attaches (local/gateway/dynamodb-calls.ts). Deterministic: a test holds the budgets
// (tests/performance/dynamodb-calls.stack.test.ts) and the bench reports the same figures.
// A request's figure is the invocation that answers it (its latency and its cost per request):
//   - registration: POST /api/registrations (create-registration);
//   - consent: POST /api/consents (create-consent);
//   - webhook: a Persona event, POST /api/webhooks/persona (receive-persona-webhook);
//   - me: GET /api/me (get-me).
// What the request hands to the bus runs later in event targets; their calls are reported beside
// it (`chain`: the request plus every target invocation it led to) for the cost estimate.

export const dynamoDbCallBudgets = { registration: 6, consent: 3, webhook: 2, me: 3 } as const;
export type CallsPerRequest = Record<
  keyof typeof dynamoDbCallBudgets,
  { request: string[]; chain: InvocationCalls[] }
>;

export async function measureDynamoDbCalls(stack: StackInfo): Promise<CallsPerRequest> {
  const api = webApi(stack);
  const control = (method: string) =>
    fetch(`${stack.api}/__local/dynamodb/calls`, { method }).then(async (response) => {
      if (response.status !== 200) throw new Error(`the stack counts no DynamoDB calls (${response.status})`);
      return (await response.json()) as InvocationCalls[];
    });
  const settle = () => fetch(`${stack.api}/__local/events/settle`, { method: 'POST' }).then((r) => r.text());
  /** The calls of `handler`'s invocations while `action` ran and its events settled. */
  const during = async (action: () => Promise<void>) => {
    await settle();
    await control('POST');
    try {
      await action();
      await settle();
      return await control('GET');
    } finally {
      // Counting costs every request (the async context's promise hooks): off outside a count.
      await control('DELETE');
    }
  };
  const callsOf = (log: InvocationCalls[], handler: string) => {
    const invocations = log.filter((entry) => entry.handler === handler);
    if (invocations.length !== 1)
      throw new Error(`expected one ${handler} invocation, saw ${invocations.length}`);
    return invocations[0]?.calls ?? [];
  };

  const email = `bench-${randomBytes(6).toString('hex')}@calls.example`;
  const registrationLog = await during(async () => {
    const response = await api('/api/registrations', {
      method: 'POST',
      body: { ...sampleRegistrationRequest, responsibleEmail: email, organizationType: 'commercial' },
    });
    if (response.status !== 201) throw new Error(`registration answered ${response.status}`);
  });

  const user = await enrolledUser(stack);
  const consentLog = await during(async () => {
    const response = await api('/api/consents', {
      method: 'POST',
      token: user.token,
      body: identityVerificationConsent,
    });
    if (response.status !== 201) throw new Error(`consent answered ${response.status}`);
  });

  const webhookLog = await during(async () => {
    const answer = await sendWebhook(stack, personaEvent('inquiry.completed', user, new Date()));
    if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`);
  });

  const meLog = await during(async () => {
    const response = await api('/api/me', { token: user.token });
    if (response.status !== 200) throw new Error(`GET /api/me answered ${response.status}`);
  });

  const figure = (log: InvocationCalls[], handler: string) => ({
    request: callsOf(log, handler),
    chain: log,
  });
  return {
    registration: figure(registrationLog, 'create-registration'),
    consent: figure(consentLog, 'create-consent'),
    webhook: figure(webhookLog, 'receive-persona-webhook'),
    me: figure(meLog, 'get-me'),
  };
}
