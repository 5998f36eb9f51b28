import { describe, expect, inject, it } from 'vitest';
import { dynamoDbCallBudgets, measureDynamoDbCalls } from '#scripts/bench/dynamodb-calls.ts';

// Issue 13: DynamoDB calls per request on the local stack, counted by the client middleware the
// stack attaches to the handlers' client: registration <= 6, consent <= 3, webhook <= 2,
// GET /api/me <= 3 (the invocation that answers the request; scripts/bench/dynamodb-calls.ts).

const stack = inject('stack');

describe('DynamoDB calls per request', () => {
  it('stay within the budgets, and the counter sees the calls', async () => {
    const calls = await measureDynamoDbCalls(stack);
    const counts = Object.fromEntries(Object.entries(calls).map(([key, value]) => [key, value.request]));
    // Registration writes the submission, consent writes its ledger entry and GET /api/me reads the
    // state: none can be answered without DynamoDB, so a zero here means the counter is blind.
    expect(counts.registration?.length).toBeGreaterThan(0);
    expect(counts.consent?.length).toBeGreaterThan(0);
    expect(counts.me?.length).toBeGreaterThan(0);
    const over = Object.entries(dynamoDbCallBudgets).flatMap(([key, budget]) =>
      (counts[key]?.length ?? Number.NaN) <= budget
        ? []
        : [`${key}: ${counts[key]?.join(', ')} (budget ${budget})`],
    );
    expect(over).toEqual([]);
    // The same handlers' calls in every event target the four requests led to are counted too.
    expect(
      calls.webhook.chain.some(
        (entry) => entry.handler === 'process-persona-event' && entry.calls.length > 0,
      ),
    ).toBe(true);
  });
});
