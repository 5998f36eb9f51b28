import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  perIpRuleCovers,
  perIpWriteLimit,
  perIpWriteLimitResponse,
  publicWriteRoutes,
} from '#lambdas/http/edge.ts';
import { routes } from '#lambdas/routes.ts';
import { matches } from '#tests/helpers/waf-statement.ts';
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
    expect(matched).toEqual(
      publicWriteRoutes(routes).flatMap((route) => [
        route.path.toLowerCase(),
        `${route.path.toLowerCase()}/`,
      ]),
    );
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

  it('counts the variants of a public path API Gateway may still route: trailing slash, case, percent-encoding (ADR 0072)', () => {
    const edge = Template.fromStack(stacks.edge as NonNullable<typeof stacks.edge>);
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    const scopeDown = acl?.Properties.Rules[0].Statement.RateBasedStatement.ScopeDownStatement;
    const counted = (uriPath: string, method = 'POST') => matches(scopeDown, { method, uriPath });
    for (const path of [
      '/api/registrations',
      '/api/registrations/',
      '/API/Registrations',
      '/api/%72egistrations',
      '/api/%52EGISTRATIONS/',
      '/%61pi/data-deletion-requests/confirm',
      '/api/Data-Deletion-Requests/',
    ])
      expect([path, counted(path)]).toEqual([path, true]);
    for (const route of publicWriteRoutes(routes)) expect(counted(route.path)).toBe(true);
    // Not a public write: other paths, other methods, the signed webhook, a signed-in route.
    for (const path of [
      '/api/registrationsx',
      '/api/registrations//',
      '/api/webhooks/persona',
      '/api/me/consents',
    ])
      expect([path, counted(path)]).toEqual([path, false]);
    expect(counted('/api/registrations', 'GET')).toBe(false);
  });

  it("applies the local gateway's emulation of the rule to the same requests as the synthesized rule", () => {
    const edge = Template.fromStack(stacks.edge as NonNullable<typeof stacks.edge>);
    const [acl] = Object.values(edge.findResources('AWS::WAFv2::WebACL'));
    const scopeDown = acl?.Properties.Rules[0].Statement.RateBasedStatement.ScopeDownStatement;
    const local = perIpRuleCovers(routes);
    const paths = [
      ...publicWriteRoutes(routes).flatMap((route) => [
        route.path,
        `${route.path}/`,
        route.path.toUpperCase(),
      ]),
      '/api/%72egistrations',
      '/api/registrations%2F',
      '/api/registrations%',
      '/api/me/kyc/inquiry',
      '/api/health',
      '/',
    ];
    for (const method of ['POST', 'GET'])
      for (const uriPath of paths)
        expect([method, uriPath, local(method, uriPath)]).toEqual([
          method,
          uriPath,
          matches(scopeDown, { method, uriPath }),
        ]);
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
