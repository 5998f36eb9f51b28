import { CfnDeletionPolicy, CfnResource, type IAspect, RemovalPolicy } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// What a stack keeps: its data (tables, secrets, buckets, the alarm key, log groups) survives a
// stack's deletion and a resource's replacement, but not a failed first create. CloudFormation's
// RetainExceptOnCreate deletes what the failed operation itself created when it rolls back, so the
// retry (after turning termination protection off and deleting the stack, docs/deploying.md)
// meets no leftover secrets or tables carrying the real ones' names and tags (issue 24, ADR 0070).

/** The removal policy of everything the platform keeps: `RetainExceptOnCreate` and `UpdateReplacePolicy: Retain`. */
export const retained = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;

/**
 * Turns every plain `Retain` the constructs default to (a log group, a KMS key) into
 * `RetainExceptOnCreate`, so no resource of the platform's stacks outlives a failed first create.
 */
export class RetainExceptOnCreate implements IAspect {
  visit(node: IConstruct): void {
    if (node instanceof CfnResource && node.cfnOptions.deletionPolicy === CfnDeletionPolicy.RETAIN)
      node.cfnOptions.deletionPolicy = CfnDeletionPolicy.RETAIN_EXCEPT_ON_CREATE;
  }
}
