import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { exactly } from '#infra/realtime/realtime-api.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

// The realtime API as deployed (ADR 0060): AppSync Events with Auth0 (OIDC) for browsers and IAM
// for the publisher, the kyc-decisions namespace with its onSubscribe rule, least privilege for the
// push function, and the site allowed to reach exactly this realtime host.

// At import, as the other infra tests do: a synthesis on a busy machine outlasts a hook's 10 s.
const synth = synthPlatform();

describe('the realtime API', () => {
  it('lets browsers connect and subscribe with an Auth0 access token of this API only, and only IAM publish', () => {
    const { config } = synth;
    synth.backend.hasResourceProperties('AWS::AppSync::Api', {
      EventConfig: {
        AuthProviders: Match.arrayWith([
          { AuthType: 'AWS_IAM' },
          {
            AuthType: 'OPENID_CONNECT',
            OpenIDConnectConfig: {
              Issuer: `https://${config.auth0.domain}/`,
              ClientId: exactly(config.auth0.audience),
            },
          },
        ]),
        ConnectionAuthModes: [{ AuthType: 'OPENID_CONNECT' }],
        DefaultPublishAuthModes: [{ AuthType: 'AWS_IAM' }],
        DefaultSubscribeAuthModes: [{ AuthType: 'OPENID_CONNECT' }],
        LogConfig: { LogLevel: 'ERROR', CloudWatchLogsRoleArn: Match.anyValue() },
      },
    });
    expect(new RegExp(exactly('https://api.platform.example')).test('https://apixplatform.example')).toBe(
      false,
    );
  });

  it('has the kyc-decisions namespace, whose onSubscribe handler compares the caller with the channel', () => {
    synth.backend.hasResourceProperties('AWS::AppSync::ChannelNamespace', {
      Name: 'kyc-decisions',
      PublishAuthModes: [{ AuthType: 'AWS_IAM' }],
      SubscribeAuthModes: [{ AuthType: 'OPENID_CONNECT' }],
      CodeHandlers: Match.stringLikeRegexp('export \\{\\s*onSubscribe\\s*\\}'),
    });
    const [namespace] = Object.values(synth.backend.findResources('AWS::AppSync::ChannelNamespace'));
    const code = String(namespace?.Properties.CodeHandlers);
    expect(code).toContain('import { util } from "@aws-appsync/utils"');
    expect(code).toContain('mayReadKycChannel(ctx.identity?.sub, ctx.info.channel.path)');
  });

  it('keeps its logs in a log group with the stage retention', () => {
    synth.backend.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: Match.objectLike({
        'Fn::Join': Match.arrayWith([Match.arrayWith(['/aws/appsync/apis/'])]),
      }),
      RetentionInDays: Match.anyValue(),
    });
  });

  it('lets only push-kyc-decision publish, to the kyc-decisions namespace only, and tells it where', () => {
    const policies = synth.backend.findResources('AWS::IAM::Policy');
    const publishers = Object.entries(policies).filter(([, policy]) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('appsync:'),
    );
    expect(publishers.map(([id]) => id)).toEqual([expect.stringMatching(/^PushKycDecision/)]);
    const statements = (publishers[0]?.[1].Properties.PolicyDocument.Statement ?? []) as {
      Action: unknown;
      Resource: unknown;
    }[];
    const appsync = statements.filter((s) => JSON.stringify(s.Action).includes('appsync:'));
    expect(appsync).toHaveLength(1);
    expect(appsync[0]?.Action).toBe('appsync:EventPublish');
    expect(JSON.stringify(appsync[0]?.Resource)).toContain('/channelNamespace/kyc-decisions');
    synth.backend.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ REALTIME_HTTP_DOMAIN: Match.anyValue() }) },
    });
  });

  it("is the one realtime host the site's CSP lets pages connect to, and /config.json names it", () => {
    const [policy] = Object.values(synth.site.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    const csp = JSON.stringify(
      policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
    );
    expect(csp).toMatch(/connect-src 'self' https:\/\/[^ ]+ wss:\/\//);
    expect(csp).toContain('DnsRealtime');
    // config.json's realtime block is written from the same references (tests/infra/site/site.test.ts reads the file).
    expect(JSON.stringify(synth.site.toJSON())).toContain('DnsHttp');
  });
});
