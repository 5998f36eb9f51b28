import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  perIpPathTransformations,
  perIpRulePaths,
  perIpWriteLimit,
  perIpWriteLimitResponse,
} from '#lambdas/http/edge.ts';
import type { RouteDef } from '#lambdas/routes.ts';

// The site's web ACL (scope CLOUDFRONT, so it lives in us-east-1): the per-client-IP limit on the
// public write routes, the rule the local gateway applies too (lambdas/http/edge.ts, ADR 0032).

export const perIpRuleName = 'PerIpPublicWrites';
const rateLimitedBody = 'rate-limited';

/**
 * The rate-based rule as WAF takes it: requests per viewer IP to the public POST routes, the path
 * URL-decoded and lowercased first, with or without a trailing slash (ADR 0072).
 */
export function perIpWriteRule(routes: readonly RouteDef[], priority: number): CfnWebACL.RuleProperty {
  const paths = perIpRulePaths(routes);
  const pathIs = (path: string): CfnWebACL.StatementProperty => ({
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'EXACTLY',
      searchString: path,
      textTransformations: perIpPathTransformations.map((type, index) => ({ priority: index, type })),
    },
  });
  const isPost: CfnWebACL.StatementProperty = {
    byteMatchStatement: {
      fieldToMatch: { method: {} },
      positionalConstraint: 'EXACTLY',
      searchString: 'POST',
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  };
  const anyPath: CfnWebACL.StatementProperty =
    paths.length === 1 ? pathIs(paths[0] as string) : { orStatement: { statements: paths.map(pathIs) } };
  return {
    name: perIpRuleName,
    priority,
    statement: {
      rateBasedStatement: {
        limit: perIpWriteLimit.limit,
        evaluationWindowSec: perIpWriteLimit.windowSeconds,
        // The viewer's address as CloudFront received the connection (not X-Forwarded-For).
        aggregateKeyType: 'IP',
        scopeDownStatement: { andStatement: { statements: [isPost, anyPath] } },
      },
    },
    action: {
      block: {
        customResponse: {
          responseCode: perIpWriteLimitResponse.status,
          customResponseBodyKey: rateLimitedBody,
          responseHeaders: [
            { name: 'retry-after', value: String(perIpWriteLimitResponse.retryAfterSeconds) },
          ],
        },
      },
    },
    visibilityConfig: {
      cloudWatchMetricsEnabled: true,
      metricName: perIpRuleName,
      sampledRequestsEnabled: true,
    },
  };
}

export interface EdgeFirewallProps {
  routes: readonly RouteDef[];
  stage: string;
}

/** A CLOUDFRONT-scope web ACL: allow by default, the per-IP rule on the public write routes. */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    // Deliberately no managed rule groups yet: the Common Rule Set's SizeRestrictions_BODY (8 KB)
    // would block Persona's webhook events (up to 2 MiB) and its XSS/SQLi rules the free-text
    // forms; any group added later must exclude those or scope them away from the webhook.
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: `Platform site ${props.stage}: per-IP limit on the public forms`,
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBody]: { contentType: 'APPLICATION_JSON', content: perIpWriteLimitResponse.body },
      },
      rules: [perIpWriteRule(props.routes, 0)],
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: `platform-${props.stage}-site`,
        sampledRequestsEnabled: true,
      },
    });
  }
}
