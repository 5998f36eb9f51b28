import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { perIpWriteLimit, perIpWriteLimitResponse, publicWriteRoutes } from '#lambdas/http/edge.ts';
import { routes } from '#lambdas/routes.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

// The site's web ACL: CloudFront takes ACLs from us-east-1 only, so a stage without its own gets
// an edge stack there; its rule is the one the local gateway applies (lambdas/http/edge.ts).

const { stacks, site } = synthPlatform();

describe('the edge stack (a stage without its own web ACL)', () => {
  it('lives in us-east-1 and holds one CLOUDFRONT-scope web ACL that allows by default', () => {
    expect(stacks.edge?.region).toBe('us-east-1');
    const edge = Template.fromStack(stacks.edge as NonNullable<typeof stacks.edge>);
    const acls = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    expect(acls[0]?.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
  });

  it("limits each viewer IP on the public POST routes to the local gateway's rule, answering 429 like the API", () => {
    const edge = Template.fromStack(stacks.edge as NonNullable<typeof stacks.edge>);
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    const [rule, ...others] = acl?.Properties.Rules ?? [];
    expect(others).toEqual([]);
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({
      Limit: perIpWriteLimit.limit,
      EvaluationWindowSec: perIpWriteLimit.windowSeconds,
      AggregateKeyType: 'IP',
    });
    const [method, paths] = rate.ScopeDownStatement.AndStatement.Statements;
    expect(method.ByteMatchStatement).toMatchObject({ FieldToMatch: { Method: {} }, SearchString: 'POST' });
    const matched = paths.OrStatement.Statements.map(
      (statement: { ByteMatchStatement: { SearchString: string; PositionalConstraint: string } }) => {
        expect(statement.ByteMatchStatement.PositionalConstraint).toBe('EXACTLY');
        return statement.ByteMatchStatement.SearchString;
      },
    );
    expect(matched).toEqual(publicWriteRoutes(routes).map((route) => route.path));
    expect(matched).not.toContain('/api/webhooks/persona');
    const block = rule.Action.Block.CustomResponse;
    expect(block.ResponseCode).toBe(429);
    expect(block.ResponseHeaders).toEqual([
      { Name: 'retry-after', Value: String(perIpWriteLimitResponse.retryAfterSeconds) },
    ]);
    expect(acl?.Properties.CustomResponseBodies[block.CustomResponseBodyKey]).toEqual({
      ContentType: 'APPLICATION_JSON',
      Content: perIpWriteLimitResponse.body,
    });
  });

  it('is attached to the distribution', () => {
    const [dist] = Object.values(site.findResources('AWS::CloudFront::Distribution'));
    expect(JSON.stringify(dist?.Properties.DistributionConfig.WebACLId)).toMatch(/ExportsReader|WebAcl/);
  });
});

describe('a stage that brings its own web ACL', () => {
  it('gets no edge stack, and the distribution uses the given ACL', () => {
    const arn =
      'arn:aws:wafv2:us-east-1:111111111111:global/webacl/platform/12345678-1234-1234-1234-123456789012';
    const own = synthPlatform({ webAclArn: arn });
    expect(own.stacks.edge).toBeUndefined();
    const [dist] = Object.values(own.site.findResources('AWS::CloudFront::Distribution'));
    expect(dist?.Properties.DistributionConfig.WebACLId).toBe(arn);
  });
});
