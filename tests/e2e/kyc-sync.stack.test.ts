import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect, inject, it } from 'vitest';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import {
  enrolledUsers,
  personaEvent,
  sendWebhook,
  shuffle,
  webApi,
} from '#tests/helpers/persona-webhooks.ts';
import { managementToken } from '#tests/helpers/tokens.ts';

// Finding 0 of issue 10 as a new user's load would show it: signed Persona events for several
// users, each delivered more than once, in a shuffled order, all at once. The processor and the
// Auth0 sync run concurrently on the local bus (as EventBridge invokes targets concurrently);
// once the bus is idle, every user's Auth0 app_metadata must say what the KYC table and
// GET /api/me say.

const stack = inject('stack');
const db = stackDb(stack);

const api = webApi(stack);
const userCount = 20;

it('leaves every user with Auth0 kyc_status equal to the KYC table after concurrent, duplicated, shuffled webhooks', async () => {
  const users = await enrolledUsers(stack, userCount);
  const start = Date.now() - 60_000;
  const bodies = users.flatMap((user, index) => {
    // A review step, then a decision a second later: two status changes close together, whose
    // KycStatusChanged deliveries race in the sync target.
    const events = [
      personaEvent('inquiry.completed', user, new Date(start)),
      personaEvent('inquiry.marked-for-review', user, new Date(start + 500)),
      personaEvent(index % 2 ? 'inquiry.approved' : 'inquiry.declined', user, new Date(start + 1000)),
    ];
    // Each event delivered two or three times (Persona retries; deliveries overlap).
    return events.flatMap((body, n) => Array.from({ length: 2 + ((index + n) % 2) }, () => body));
  });
  const send = (body: string) => sendWebhook(stack, body).then((answer) => answer.status);
  // All at once: the load is what widens the window between a sync's read and its patch. What
  // was not acknowledged (the gateway answers 503 when it cannot queue in time) is sent again,
  // as Persona would.
  const shuffled = shuffle(bodies);
  const first = await Promise.all(shuffled.map(send));
  let pending = shuffled.filter((_, i) => first[i] !== 200);
  for (let round = 0; round < 3 && pending.length > 0; round++) {
    const again = await Promise.all(pending.map(send));
    pending = pending.filter((_, i) => again[i] !== 200);
  }
  const refused = pending;
  expect(refused).toEqual([]);
  expect((await fetch(`${stack.api}/__local/events/settle`, { method: 'POST' })).status).toBe(200);

  const token = await managementToken(stack);
  const seen = await Promise.all(
    users.map(async (user) => {
      const { Item } = await db.client.send(
        new GetCommand({
          TableName: db.tableName('KycState'),
          Key: { pk: `USER#${user.userId}`, sk: 'STATE' },
          ConsistentRead: true,
        }),
      );
      const me = (await (await api('/api/me', { token: user.token })).json()) as { kycStatus: string };
      const idp = await managementFetch(
        `${stack.idp.issuer}api/v2/users/${encodeURIComponent(user.userId)}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      const { app_metadata } = (await idp.json()) as { app_metadata: { kyc_status?: string } };
      return { table: Item?.status, me: me.kycStatus, auth0: app_metadata.kyc_status };
    }),
  );
  expect(seen).toEqual(
    users.map((_, index) => {
      const decided = index % 2 ? 'approved' : 'rejected';
      return { table: decided, me: decided, auth0: decided };
    }),
  );
});
