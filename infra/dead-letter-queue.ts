import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * A dead-letter queue: encrypted, TLS only, kept for SQS's longest retention (14 days) so an
 * operator has time to replay it. cdk-nag's "this queue has no dead-letter queue of its own" rules
 * are acknowledged with `reason`, which says whose dead letters it holds.
 */
export function deadLetterQueue(scope: Construct, id: string, reason: string): Queue {
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  for (const rule of ['AwsSolutions-SQS3', 'Serverless-SQSRedrivePolicy']) {
    Validations.of(queue).acknowledge({ id: rule, reason });
  }
  return queue;
}
