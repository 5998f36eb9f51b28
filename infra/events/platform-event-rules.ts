import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { MakeFunction } from '#infra/api/platform-function.ts';
import { deadLetterQueue } from '#infra/dead-letter-queue.ts';
import { asyncInvocation, eventRules } from '#lambdas/event-rules.ts';

export interface PlatformEventRulesProps {
  /** The bus the pattern rules listen on (scheduled rules use the default bus). */
  bus: IEventBus;
  makeFunction: MakeFunction;
}

/**
 * One function, rule and encrypted dead-letter queue per row of lambdas/event-rules.ts, with the
 * rule target's retries and the function's asynchronous-invocation retries and on-failure
 * destination.
 *
 * It adds its resources to the scope it is given rather than being a construct of its own: a
 * wrapping construct would change every logical id, and a deployed stage would replace its
 * dead-letter queues and the events waiting in them (ADR 0051).
 */
export class PlatformEventRules {
  readonly deadLetterQueues: { id: string; queue: Queue }[] = [];

  constructor(scope: Construct, props: PlatformEventRulesProps) {
    // Each target retries, then lands in its own encrypted dead-letter queue. EventBridge invokes
    // Lambda asynchronously: the rule's retry policy and DLQ cover delivery (throttling, service
    // errors); once Lambda accepts the event, a failing function is retried by Lambda itself and
    // then sent to the function's on-failure destination. Both land in the rule's one queue, so an
    // operator looks in one place (docs/operating.md explains the two shapes).
    for (const def of eventRules) {
      const deadLetters = deadLetterQueue(
        scope,
        `${def.id}DeadLetters`,
        'This queue is the dead-letter queue of a rule target; nothing consumes it automatically.',
      );
      this.deadLetterQueues.push({ id: def.id, queue: deadLetters });
      // Lambda's own retries (1 and 2 minutes apart) absorb short Auth0/SES outages; throttled
      // events wait in Lambda's queue up to the maximum age (ADR 0062).
      const invocation = asyncInvocation(def);
      const fn = props.makeFunction(def.id, def, {
        onFailure: new SqsDestination(deadLetters),
        retryAttempts: invocation.retryAttempts,
        maxEventAge: Duration.seconds(invocation.maxEventAgeSeconds),
      });
      new Rule(scope, `${def.id}Rule`, {
        description: def.description,
        ...(def.pattern
          ? {
              eventBus: props.bus,
              eventPattern: {
                source: def.pattern.source,
                detailType: def.pattern['detail-type'],
                ...(def.pattern.detail ? { detail: def.pattern.detail } : {}),
              },
            }
          : { schedule: Schedule.rate(Duration.minutes(def.schedule.rateMinutes)) }),
        targets: [
          new LambdaFunction(fn, {
            deadLetterQueue: deadLetters,
            retryAttempts: def.retry.maximumRetryAttempts,
            maxEventAge: Duration.seconds(def.retry.maximumEventAgeSeconds),
          }),
        ],
      });
    }
  }
}
