import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

// Counts the DynamoDB calls each Lambda invocation makes (issue 13's budgets: registration <= 6,
// consent <= 3, webhook <= 2, GET /api/me <= 3). A client middleware that only counts, attached by
// the local stack to the handlers' shared client: nothing in a handler's code path knows of it, and
// in AWS nothing attaches it. Each invocation the gateway runs (an HTTP route or an event target)
// carries its record through async context, so concurrent requests are told apart.
//
// Counting is off until a count is started (`start`) and off again once it is stopped: an active
// AsyncLocalStorage makes Node run its promise hooks on every promise of the process, which cost a
// request tens of microseconds (ADR 0053), so the stack pays for it only while someone counts.

export interface InvocationCalls {
  handler: string;
  /** The `apigw-requestid` the gateway answered with (HTTP routes), or the bus event's id (targets). */
  requestId: string;
  /** Command names, in order (`GetItemCommand`, `TransactWriteItemsCommand`, ...). */
  calls: string[];
}

/** The newest invocations kept; a bench or a test reads its own right after it ran. */
const kept = 2_000;

export function createDynamoDbCallLog() {
  const current = new AsyncLocalStorage<InvocationCalls>();
  const finished: InvocationCalls[] = [];
  let counting = false;
  return {
    /**
     * Runs one invocation, while counting with its own record (kept once the invocation settles);
     * otherwise just runs it.
     */
    run<T>(handler: string, requestId: string, invoke: () => Promise<T>): Promise<T> {
      if (!counting) return invoke();
      const record: InvocationCalls = { handler, requestId, calls: [] };
      return current.run(record, invoke).finally(() => {
        finished.push(record);
        if (finished.length > kept) finished.splice(0, finished.length - kept);
      });
    },
    /** Adds the counting middleware (first, so a call is counted once however often it is retried). */
    attach(client: Pick<DynamoDBClient, 'middlewareStack'>): void {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          current.getStore()?.calls.push(String(context.commandName ?? 'unknown'));
          return next(args);
        },
        { step: 'initialize', name: 'localCallCount', priority: 'high' },
      );
    },
    /** Starts a fresh count: the invocations from now on, each with its calls. */
    start: (): void => {
      finished.length = 0;
      counting = true;
    },
    /** Stops counting and forgets the count; the async context's hooks are switched off again. */
    stop: (): void => {
      counting = false;
      finished.length = 0;
      current.disable();
    },
    counting: (): boolean => counting,
    list: (): InvocationCalls[] => [...finished],
  };
}

export type DynamoDbCallLog = ReturnType<typeof createDynamoDbCallLog>;
