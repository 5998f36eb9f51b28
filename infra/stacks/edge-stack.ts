import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EdgeFirewall } from '#infra/site/edge-firewall.ts';
import type { RouteDef } from '#lambdas/routes.ts';

export interface EdgeStackProps extends StackProps {
  routes: readonly RouteDef[];
  stage: string;
}

/**
 * What CloudFront needs from us-east-1 whatever the stage's region: the web ACL. The site stack
 * reads its ARN through CDK's cross-region references.
 */
export class EdgeStack extends Stack {
  readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.firewall = new EdgeFirewall(this, 'Firewall', { routes: props.routes, stage: props.stage });
  }
}
