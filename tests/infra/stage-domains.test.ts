import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '#contracts/api.ts';
import { webConfig } from '#contracts/web-config.ts';
import { desiredTenant } from '#infra/auth0/provision/desired.ts';
import { exampleStages } from '#infra/stage-config.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';
import { freshTimes, type SigningKey, signingKey } from '#tests/helpers/signing-keys.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

// The domains of a stage, end to end: from the stage file through synthesis (the functions'
// environment, the API's authorizer, the site's /config.json) into the code that runs with that
// environment (the Management API client, the bearer-token check).

const dev = exampleStages.dev as NonNullable<typeof exampleStages.dev>;
const CUSTOM = 'login.platform.example';
const CANONICAL = 'platform-dev.eu.auth0.com';

/** Every function's environment, by logical id. */
function environments(template: Template): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(template.findResources('AWS::Lambda::Function'))
      .filter(([, fn]) => fn.Properties.Environment?.Variables?.CLAIMS_NAMESPACE)
      .map(([id, fn]) => [id, fn.Properties.Environment.Variables]),
  );
}

/** The `/config.json` the site stack writes into the bucket. */
function siteConfig(synth: ReturnType<typeof synthPlatform>): unknown {
  const pages = Object.values(synth.site.findResources('Custom::CDKBucketDeployment')).find(
    (d) => d.Properties.DestinationBucketKeyPrefix !== 'assets/',
  );
  const outdir = synth.app.synth().directory;
  const files = ((pages?.Properties.SourceObjectKeys ?? []) as string[])
    .map((key) => path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'config.json'))
    .filter((file) => existsSync(file));
  expect(files).toHaveLength(1);
  return webConfig.parse(JSON.parse(readFileSync(files[0] as string, 'utf8')));
}

describe('a stage whose Auth0 tenant has a custom domain', () => {
  const synth = synthPlatform({ auth0: { ...dev.auth0, domain: CUSTOM, tenantDomain: CANONICAL } });
  const envs = environments(synth.backend);
  const getMeEnv = Object.entries(envs).find(([id]) => id.startsWith('GetMe'))?.[1] ?? {};

  it('gives every function the custom issuer and the canonical tenant for the Management API', () => {
    expect(Object.keys(envs).length).toBeGreaterThan(10);
    for (const [id, env] of Object.entries(envs)) {
      expect(env, id).toMatchObject({ AUTH0_ISSUER: `https://${CUSTOM}/`, AUTH0_DOMAIN: CANONICAL });
    }
  });

  it("gives every function the stage's SPA client id (an organization invitation names it, ADR 0084)", () => {
    for (const [id, env] of Object.entries(envs)) {
      expect([id, env.AUTH0_SPA_CLIENT_ID]).toEqual([id, dev.auth0.spaClientId]);
    }
  });

  it("has API Gateway's authorizer trust the custom issuer", () => {
    synth.backend.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      JwtConfiguration: Match.objectLike({ Issuer: `https://${CUSTOM}/` }),
    });
  });

  it('sends the site to sign in at the custom domain', () => {
    expect(siteConfig(synth)).toMatchObject({ auth0: { domain: CUSTOM } });
  });

  describe('the code running with that environment', () => {
    const secrets = mockClient(SecretsManagerClient);
    let key: SigningKey;
    let requests: { url: string; body: string }[] = [];

    beforeAll(async () => {
      key = await signingKey('custom-domain-key');
      // The function's Auth0 settings (its log level stays the test run's).
      const auth0Env = Object.entries(getMeEnv).filter(([name]) => /^(AUTH0_|CLAIMS_)/.test(name));
      Object.assign(process.env, Object.fromEntries(auth0Env), {
        AWS_REGION: 'eu-central-1',
        [secretEnvVars.auth0ReadUsers]: 'read-users-secret',
      });
      mockOriginSecret(secrets);
      secrets.on(GetSecretValueCommand, { SecretId: 'read-users-secret' }).resolves({
        SecretString: JSON.stringify({ clientId: 'm2m', clientSecret: 's3cret' }),
        VersionId: 'v1',
      });
      // The HTTP boundary: Auth0's hosts as the functions would reach them.
      vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        requests.push({ url, body: String(init?.body ?? '') });
        if (url === `https://${CANONICAL}/oauth/token`) {
          return Response.json({ access_token: 'management-token', expires_in: 86400, token_type: 'Bearer' });
        }
        if (url.startsWith(`https://${CANONICAL}/api/v2/users/`)) {
          return Response.json({
            user_id: 'auth0|u1',
            email: 'u1@example.com',
            email_verified: true,
            name: 'U',
          });
        }
        if (url === `https://${CUSTOM}/.well-known/jwks.json`) return Response.json({ keys: [key.jwk] });
        return new Response('not found', { status: 404 });
      });
    });
    afterEach(() => {
      requests = [];
    });
    afterAll(() => {
      vi.unstubAllGlobals();
    });

    it('asks the canonical domain for Management API tokens, for the canonical audience', async () => {
      const { getUserDirectory } = await import('#lambdas/adapters/auth0-user-directory.ts');
      const users = await getUserDirectory('auth0ReadUsers');
      expect(await users.get('auth0|u1')).toMatchObject({ userId: 'auth0|u1' });
      const token = requests.find((r) => r.url.endsWith('/oauth/token'));
      expect(token?.url).toBe(`https://${CANONICAL}/oauth/token`);
      expect(new URLSearchParams(token?.body).get('audience')).toBe(`https://${CANONICAL}/api/v2/`);
      expect(requests.map((r) => new URL(r.url).host)).toEqual([CANONICAL, CANONICAL]);
    });

    it('records registrations under the issuer the tokens carry', async () => {
      const { identityIssuer } = await import('#lambdas/adapters/auth0-user-directory.ts');
      expect(identityIssuer()).toBe(`https://${CUSTOM}/`);
    });

    it('accepts tokens from the custom issuer and refuses the canonical one', async () => {
      const { httpHandler } = await import('#lambdas/http/http-handler.ts');
      const route = httpHandler({ route: apiRoutes.GetMe }, async ({ caller }) => ({
        status: 200,
        body: { userId: caller.userId },
      }));
      const call = async (iss: string) => {
        const token = await key.sign({ iss, sub: 'auth0|u1', aud: dev.auth0.audience, ...freshTimes() });
        const base = httpApiEvent({ routeKey: 'GET /api/me', body: undefined });
        const result = await route(
          {
            ...base,
            headers: { ...base.headers, authorization: `Bearer ${token}` },
            requestContext: {
              ...base.requestContext,
              authorizer: { jwt: { claims: { sub: 'auth0|u1', iss }, scopes: null } },
            },
          },
          lambdaContext,
        );
        return result.statusCode;
      };
      expect(await call(`https://${CUSTOM}/`)).toBe(200);
      expect(requests.map((r) => r.url)).toContain(`https://${CUSTOM}/.well-known/jwks.json`);
      expect(await call(`https://${CANONICAL}/`)).toBe(401);
    });
  });
});

describe('a stage without a custom domain', () => {
  it('synthesizes before its CloudFront host is known, without APP_URL, and says what to do next', () => {
    const first = synthPlatform({ siteUrl: undefined });
    expect(first.config.siteUrl).toBeUndefined();
    for (const [id, env] of Object.entries(environments(first.backend))) {
      expect(env.APP_URL, id).toBeUndefined();
    }
    first.site.hasOutput('DistributionDomainName', {});
    const warnings = Annotations.fromStack(first.stacks.backend).findWarning(
      '*',
      Match.stringLikeRegexp('has no siteUrl yet.*DistributionDomainName'),
    );
    expect(warnings).toHaveLength(1);
    expect(() => desiredTenant(first.config, { managementDomain: CANONICAL })).toThrow(
      /has no siteUrl: .*DistributionDomainName/,
    );
  });

  it('uses the CloudFront host once it is set: emails, Auth0 callbacks, no aliases', () => {
    const second = synthPlatform({ siteUrl: 'https://d111111abcdef8.cloudfront.net' });
    for (const [id, env] of Object.entries(environments(second.backend))) {
      expect(env.APP_URL, id).toBe('https://d111111abcdef8.cloudfront.net');
    }
    expect(
      Annotations.fromStack(second.stacks.backend).findWarning('*', Match.stringLikeRegexp('siteUrl')),
    ).toEqual([]);
    const distribution = Object.values(second.site.findResources('AWS::CloudFront::Distribution'))[0];
    expect(distribution?.Properties.DistributionConfig.Aliases).toBeUndefined();
    expect(desiredTenant(second.config, { managementDomain: CANONICAL }).spa.settings.callbacks).toEqual([
      'https://d111111abcdef8.cloudfront.net/auth/callback',
    ]);
  });

  it('takes https://<domainName> as the site URL of a stage with a custom domain', () => {
    const withDomain = synthPlatform({
      siteUrl: undefined,
      domainName: 'app.platform.example',
      certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012',
    });
    for (const env of Object.values(environments(withDomain.backend))) {
      expect(env.APP_URL).toBe('https://app.platform.example');
    }
  });
});
