import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { describe, expect, it } from 'vitest';
import { type WebConfig, webConfig } from '#contracts/web-config.ts';
import { notFoundStatusCode, pathMappingCode, siteRoutes } from '#infra/site/path-mapping.ts';
import {
  headerFields,
  personaFrameOrigin,
  siteHeaderInputs,
  siteHeaders,
} from '#infra/site/security-headers.ts';
import { Site } from '#infra/site/site.ts';
import { readWebBuild } from '#infra/site/web-build.ts';
import { viewerIpFunctionCode } from '#lambdas/http/edge.ts';
import { localSiteHeaders } from '#local/web/index.ts';
import { bucketKeys } from '#tests/helpers/site-paths.ts';
import { fixtureBuildDir, synthPlatform } from '#tests/infra/synth.ts';
import { scriptHashSource } from '../../../web/build-contract.ts';
import { inlineScripts } from '../../../web/inline-scripts.ts';

const { app, site, config } = synthPlatform();
const auth0 = `https://${config.auth0.domain}`;

const distributionConfig = () => {
  const distributions = Object.values(site.findResources('AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  return distributions[0]?.Properties.DistributionConfig;
};
const headersPolicyOf = (template: Template) => {
  const policies = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
  expect(policies).toHaveLength(1);
  return policies[0]?.Properties.ResponseHeadersPolicyConfig;
};
const headersPolicy = () => headersPolicyOf(site);
/** The web config the platform writes for the example stage. */
const webConfigFor = (): WebConfig => ({
  stage: config.stage,
  auth0: {
    domain: config.auth0.domain,
    clientId: config.auth0.spaClientId,
    audience: config.auth0.audience,
    claimsNamespace: config.auth0.claimsNamespace,
  },
  persona: { environmentId: config.persona.environmentId },
  // The backend's realtime API: a cross-stack reference, which `flat` shows as `<realtime>`.
  realtime: { httpDomain: '<realtime>', realtimeDomain: '<realtime>' },
});
/** A CloudFormation string with references (`Fn::Join`), each reference shown as `<realtime>`. */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
const flat = (value: any): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value?.['Fn::Join'])
      ? (value['Fn::Join'][1] as unknown[]).map(flat).join(value['Fn::Join'][0])
      : '<realtime>';
/** The header fields CloudFront sends for a response headers policy of the template. */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
function cloudFrontHeaderFields(policy: any): Record<string, string> {
  const security = policy.SecurityHeadersConfig;
  const hsts = security.StrictTransportSecurity;
  return {
    'Content-Security-Policy': flat(security.ContentSecurityPolicy.ContentSecurityPolicy),
    ...(hsts
      ? {
          'Strict-Transport-Security': [
            `max-age=${hsts.AccessControlMaxAgeSec}`,
            ...(hsts.IncludeSubdomains ? ['includeSubDomains'] : []),
            ...(hsts.Preload ? ['preload'] : []),
          ].join('; '),
        }
      : {}),
    ...(security.ContentTypeOptions ? { 'X-Content-Type-Options': 'nosniff' } : {}),
    ...(security.FrameOptions ? { 'X-Frame-Options': security.FrameOptions.FrameOption } : {}),
    ...(security.ReferrerPolicy ? { 'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy } : {}),
    ...Object.fromEntries(
      (policy.CustomHeadersConfig?.Items ?? []).map((h: { Header: string; Value: string }) => [
        h.Header,
        h.Value,
      ]),
    ),
  };
}

/** A stack holding only the Site, for the given web config and build. */
function synthSite(config: WebConfig, buildDir = fixtureBuildDir) {
  const stack = new Stack(new App(), 'SiteOnly', {
    env: { region: 'eu-central-1', account: '111111111111' },
  });
  new Site(stack, 'Site', {
    build: readWebBuild(buildDir),
    apiDomain: 'abc123.execute-api.eu-central-1.amazonaws.com',
    originSecret: Secret.fromSecretCompleteArn(
      stack,
      'OriginSecret',
      'arn:aws:secretsmanager:eu-central-1:111111111111:secret:origin-AbCdEf',
    ),
    config,
  });
  return { stack, template: Template.fromStack(stack) };
}

const directives = (csp: string) =>
  Object.fromEntries(
    csp.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );

describe('the site bucket', () => {
  it('is private, TLS-only, versioned, encrypted, and logs its access to a log bucket with a lifecycle', () => {
    const buckets = site.findResources('AWS::S3::Bucket');
    const content = Object.values(buckets).find((b) => b.Properties.LoggingConfiguration);
    expect(content?.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    const logBucket = buckets[content?.Properties.LoggingConfiguration.DestinationBucketName.Ref];
    expect(logBucket?.Properties.LifecycleConfiguration.Rules[0].ExpirationInDays).toBeGreaterThan(0);
    for (const policy of Object.values(site.findResources('AWS::S3::BucketPolicy'))) {
      expect(policy.Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
    site.resourceCountIs('AWS::S3::BucketPolicy', 2);
  });

  it('is read by CloudFront only, through origin access control', () => {
    site.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const s3Origin = distributionConfig().Origins.find((o: { S3OriginConfig?: unknown }) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');
  });
});

describe('the distribution', () => {
  it('speaks HTTP/2 and HTTP/3, redirects to HTTPS, and turns no error into index.html', () => {
    const dist = distributionConfig();
    expect(dist.HttpVersion).toBe('http2and3');
    expect(dist.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(dist.CustomErrorResponses).toBeUndefined();
    expect(dist.Logging.Bucket).toBeDefined();
  });

  it('sends /api/* to the HTTP API, uncached, with every method and viewer header but Host', () => {
    const dist = distributionConfig();
    const api = dist.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api).toBeDefined();
    expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
    expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    expect(api.AllowedMethods).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
    );
    // The viewer's IP as a viewer header (the policy above forwards no CloudFront header).
    expect(api.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/ViewerIp/), 'FunctionARN'] },
      },
    ]);
    const origin = dist.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(origin.S3OriginConfig).toBeUndefined();
    expect(origin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    expect(JSON.stringify(origin.DomainName)).toContain('execute-api');
    expect(origin.Id).not.toBe(dist.DefaultCacheBehavior.TargetOriginId);
  });

  it('adds the origin secret to every /api request, read from the data stack secret at deploy time', () => {
    const dist = distributionConfig();
    const api = dist.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    const origin = dist.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(origin.OriginCustomHeaders).toHaveLength(1);
    const [header] = origin.OriginCustomHeaders;
    expect(header.HeaderName).toBe('x-origin-verify');
    // A dynamic reference (resolved by CloudFormation), never the value itself in the template.
    const value = JSON.stringify(header.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(':SecretString:current::');
    expect(value).toContain('OriginVerify');
    const defaultOrigin = dist.Origins.find(
      (o: { Id: string }) => o.Id === dist.DefaultCacheBehavior.TargetOriginId,
    );
    expect(defaultOrigin.OriginCustomHeaders).toBeUndefined();
  });

  it('pins the origin secret to a version while it is being rotated', () => {
    const rotating = synthPlatform({}, { originSecretVersionId: 'c0ffee00-1111-2222-3333-444455556666' });
    const dist = Object.values(rotating.site.findResources('AWS::CloudFront::Distribution'))[0]?.Properties
      .DistributionConfig;
    const api = dist.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    const origin = dist.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(JSON.stringify(origin.OriginCustomHeaders[0].HeaderValue)).toContain(
      ':SecretString:current::c0ffee00-1111-2222-3333-444455556666}}',
    );
  });

  it('runs the path-mapping functions from the route registry on the bucket, never on /api', () => {
    const viewerIpFunction = (id: string) => /ViewerIp/.test(id);
    const dist = distributionConfig();
    const fns = site.findResources('AWS::CloudFront::Function');
    const code = (association: { FunctionARN: { 'Fn::GetAtt': string[] } }) =>
      fns[association.FunctionARN['Fn::GetAtt'][0] as string]?.Properties.FunctionCode;
    const associations = dist.DefaultCacheBehavior.FunctionAssociations;
    expect(associations.map((a: { EventType: string }) => a.EventType)).toEqual([
      'viewer-request',
      'viewer-response',
    ]);
    expect(code(associations[0])).toBe(pathMappingCode(siteRoutes));
    expect(code(associations[1])).toBe(notFoundStatusCode(siteRoutes));
    for (const fn of Object.values(fns))
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    for (const behavior of dist.CacheBehaviors)
      for (const association of behavior.FunctionAssociations ?? [])
        expect(viewerIpFunction(association.FunctionARN['Fn::GetAtt'][0])).toBe(true);
  });

  it("writes the viewer's IP for the API with the function it deploys, over any copy the viewer sent", () => {
    const fns = site.findResources('AWS::CloudFront::Function');
    const [id, fn] = Object.entries(fns).find(([id]) => /ViewerIp/.test(id)) ?? [];
    expect(id).toBeDefined();
    expect(fn?.Properties.FunctionCode).toBe(viewerIpFunctionCode);
    const context: { handler?: (event: object) => { headers: Record<string, { value: string }> } } = {};
    runInNewContext(viewerIpFunctionCode, context);
    const request = context.handler?.({
      viewer: { ip: '2001:db8::7' },
      request: {
        method: 'POST',
        uri: '/api/consents',
        querystring: {},
        headers: { 'x-viewer-ip': { value: '203.0.113.77' }, authorization: { value: 'Bearer t' } },
        cookies: {},
      },
    });
    expect(request?.headers).toEqual({
      'x-viewer-ip': { value: '2001:db8::7' },
      authorization: { value: 'Bearer t' },
    });
  });

  it('warns at synth when the web build lacks a page the registry serves, and not when it has them all', () => {
    const stale = Annotations.fromStack(synthSite(webConfigFor()).stack).findWarning(
      '*',
      Match.stringLikeRegexp('lacks .*/register/index.html.*/404.html.*/app.html'),
    );
    expect(stale).toHaveLength(1);
    const dir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(dir, 'placeholders.json'), '{"placeholders":[]}');
    for (const key of bucketKeys(siteRoutes)) {
      mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
      writeFileSync(path.join(dir, key), '<!doctype html>');
    }
    expect(
      Annotations.fromStack(synthSite(webConfigFor(), dir).stack).findWarning('*', Match.anyValue()),
    ).toEqual([]);
  });

  it('uses TLS 1.2 at least, the custom domain and the WAF ACL when the stage has them', () => {
    const withDomain = synthPlatform({
      siteUrl: 'https://app.platform.example',
      domainName: 'app.platform.example',
      certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012',
      webAclArn:
        'arn:aws:wafv2:us-east-1:111111111111:global/webacl/platform/12345678-1234-1234-1234-123456789012',
    });
    withDomain.site.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['app.platform.example'],
        ViewerCertificate: Match.objectLike({
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        }),
        WebACLId: Match.stringLikeRegexp('^arn:aws:wafv2:us-east-1:'),
      }),
    });
  });

  it('outputs its domain name', () => {
    site.hasOutput('DistributionDomainName', {});
  });
});

describe('the response headers', () => {
  const policy = () => headersPolicy();

  it('send HSTS for two years, with subdomains and preload', () => {
    expect(policy().SecurityHeadersConfig.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 63072000,
      IncludeSubdomains: true,
      Preload: true,
      Override: true,
    });
  });

  it('send a CSP that allows only this origin, the hashed theme script, the Auth0 tenant and Persona', () => {
    const csp = flat(policy().SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(directives(csp)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", ...inlineScripts.map(scriptHashSource)],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      // The realtime API's WebSocket host (the status screen's push channel, ADR 0060).
      'connect-src': ["'self'", auth0, 'wss://<realtime>'],
      'frame-src': ['https://*.withpersona.com'],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'none'"],
      // The SPA posts no form to the tenant: /authorize and /v2/logout are navigations.
      'form-action': ["'self'"],
      'object-src': ["'none'"],
      'upgrade-insecure-requests': [],
    });
    expect(csp).not.toContain('unsafe-inline');
  });

  it('send nosniff, DENY framing, a strict referrer policy and a camera only for Persona', () => {
    const config = policy();
    expect(config.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY' },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin' },
    });
    const custom = Object.fromEntries(
      config.CustomHeadersConfig.Items.map((h: { Header: string; Value: string }) => [h.Header, h.Value]),
    );
    expect(custom['Permissions-Policy']).toBe(
      'camera=(self "https://*.withpersona.com"), microphone=(), geolocation=(), payment=(), usb=(), serial=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=()',
    );
    expect(custom['Cross-Origin-Opener-Policy']).toBe('same-origin');
  });

  it('apply to the API behaviour as well as the site', () => {
    const dist = distributionConfig();
    const api = dist.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api.ResponseHeadersPolicyId).toEqual(dist.DefaultCacheBehavior.ResponseHeadersPolicyId);
  });

  it('are the header set defined once, built from the stage config and the build hashes', () => {
    const inputs = siteHeaderInputs(webConfigFor(), inlineScripts.map(scriptHashSource), { https: true });
    expect(cloudFrontHeaderFields(policy())).toEqual(headerFields(siteHeaders(inputs)));
  });

  it('say what the local dist server says for the same inputs, but HSTS and upgrade-insecure-requests (https only)', () => {
    const local: WebConfig = {
      ...webConfigFor(),
      auth0: { ...webConfigFor().auth0, domain: 'http://localhost:4010' },
      persona: { environmentId: 'env_local', customHost: 'localhost:4020' },
      realtime: { httpDomain: 'http://localhost:4030', realtimeDomain: 'ws://localhost:4030' },
    };
    const hashes = inlineScripts.map(scriptHashSource);
    const cloud = cloudFrontHeaderFields(headersPolicyOf(synthSite(local).template));
    const served = localSiteHeaders(local, hashes);
    const { 'Strict-Transport-Security': hsts, ...cloudRest } = cloud;
    expect(hsts).toBe('max-age=63072000; includeSubDomains; preload');
    expect({ ...cloudRest, 'Content-Security-Policy': undefined }).toEqual({
      ...served,
      'Content-Security-Policy': undefined,
    });
    expect(cloud['Content-Security-Policy']).toBe(
      `${served['Content-Security-Policy']}; upgrade-insecure-requests`,
    );
    const csp = directives(served['Content-Security-Policy'] as string);
    expect(csp['connect-src']).toEqual(["'self'", 'http://localhost:4010', 'ws://localhost:4030']);
    expect(csp['frame-src']).toEqual(['http://localhost:4020']);
    expect(served['Permissions-Policy']).toMatch(
      /^camera=\(self "http:\/\/localhost:4020"\), microphone=\(\)/,
    );
  });

  it('allow the Persona frame from the host the SDK loads it from', () => {
    expect(personaFrameOrigin(undefined)).toBe('https://*.withpersona.com');
    expect(personaFrameOrigin('localhost:4020')).toBe('http://localhost:4020');
    // The SDK gives every other custom host https (persona dist: baseUrlOfHost).
    expect(personaFrameOrigin('127.0.0.1:4020')).toBe('https://127.0.0.1:4020');
    expect(personaFrameOrigin('kyc.example.org')).toBe('https://kyc.example.org');
  });

  it('never allow inline scripts or styles, for any stage or build', () => {
    for (const https of [true, false]) {
      const fields = headerFields(
        siteHeaders(siteHeaderInputs(webConfigFor(), ["'sha256-abc='"], { https })),
      );
      expect(fields['Content-Security-Policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*;|\* /);
      expect(fields['Content-Security-Policy']).toContain("frame-ancestors 'none'");
      expect(fields['Content-Security-Policy']).toContain("object-src 'none'");
      expect(fields['Content-Security-Policy']).toContain("base-uri 'none'");
    }
  });
});

describe('the web build', () => {
  it('is deployed with HTML and config.json revalidated on every visit and hashed assets immutable', () => {
    const deployments = Object.values(site.findResources('Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((d) => d.Properties.DestinationBucketKeyPrefix === 'assets/');
    const pages = deployments.find((d) => d !== assets);
    expect(assets?.Properties.SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(assets?.Properties.Prune).toBe(false);
    expect(pages?.Properties.SystemMetadata['cache-control']).toBe('no-cache');
    expect(pages?.Properties.Exclude).toEqual(['assets/*']);
    expect(pages?.Properties.DistributionPaths).toEqual(['/*']);
  });

  it('writes /config.json with the stage values in the shape of the web config contract', () => {
    const pages = Object.values(site.findResources('Custom::CDKBucketDeployment')).find(
      (d) => d.Properties.DestinationBucketKeyPrefix !== 'assets/',
    );
    // Source.jsonData stages config.json as an asset directory in the cloud assembly.
    const outdir = app.synth().directory;
    const files = ((pages?.Properties.SourceObjectKeys ?? []) as string[])
      .map((key) => path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'config.json'))
      .filter((file) => existsSync(file));
    expect(files).toHaveLength(1);
    const written = JSON.parse(readFileSync(files[0] as string, 'utf8'));
    expect(webConfig.parse(written)).toEqual({
      stage: 'dev',
      auth0: {
        domain: config.auth0.domain,
        clientId: config.auth0.spaClientId,
        audience: config.auth0.audience,
        claimsNamespace: config.auth0.claimsNamespace,
      },
      persona: { environmentId: config.persona.environmentId },
      // The backend's realtime API domains, filled in at deploy time.
      realtime: { httpDomain: expect.any(String), realtimeDomain: expect.any(String) },
    });
  });

  it('reads the CSP hashes the build wrote, and hashes the inline scripts exactly like the Vite build otherwise', () => {
    // The CSP's own form: base64 of the SHA-256 of the script's UTF-8 bytes (here the empty script).
    expect(scriptHashSource('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    expect(readWebBuild(fixtureBuildDir).scriptHashes).toEqual(inlineScripts.map(scriptHashSource));
    const dir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dir, 'csp-hashes.json'), JSON.stringify({ 'script-src': ["'sha256-abc='"] }));
    expect(readWebBuild(dir).scriptHashes).toEqual(["'sha256-abc='"]);
    writeFileSync(path.join(dir, 'csp-hashes.json'), JSON.stringify({ 'script-src': ["'unsafe-inline'"] }));
    expect(() => readWebBuild(dir)).toThrow(/sha256/);
  });

  it('finds the prerendered routes, and deploys a placeholder page when there is no build', () => {
    expect(readWebBuild(fixtureBuildDir).prerenderedRoutes).toEqual(['/legal/imprint', '/pricing']);
    const missing = readWebBuild(path.join(tmpdir(), 'no-such-build'));
    expect(missing.missing).toBe(true);
    expect(missing.prerenderedRoutes).toEqual([]);
  });

  it('refuses a local build (placeholder content) for a stage not marked demo, and a build that does not say', () => {
    const local = mkdtempSync(path.join(tmpdir(), 'web-dist-local-'));
    cpSync(fixtureBuildDir, local, { recursive: true });
    const report = { placeholders: ['company.iban: "[IBAN]"', 'SITE_URL names a reserved example host'] };
    writeFileSync(path.join(local, 'placeholders.json'), JSON.stringify(report));
    expect(() => synthPlatform({ demo: false }, { buildDir: local })).toThrow(
      /placeholder content, which only a stage marked `demo` may deploy:\n {2}- company\.iban: "\[IBAN\]"\n {2}- SITE_URL/,
    );
    // A demo stage deploys it, config.json and all.
    expect(synthPlatform({ demo: true }, { buildDir: local }).site.toJSON()).toBeTruthy();
    // A production build (nothing let through) deploys to any stage.
    expect(() => synthPlatform({ demo: false })).not.toThrow();
    // A build without the report (older, or not made by the web build) proves nothing.
    rmSync(path.join(local, 'placeholders.json'));
    expect(() => synthPlatform({ demo: false }, { buildDir: local })).toThrow(/no placeholders\.json/);
  });

  it('refuses a missing build for a stage that is not a demo, but for its first deploy, which has no URL yet', () => {
    const noBuild = { buildDir: path.join(tmpdir(), 'no-such-build') };
    // The "Web build missing" page would replace the live site.
    expect(() => synthPlatform({ demo: false }, noBuild)).toThrow(
      'web/dist has no index.html, so this deploy would replace the site with the "Web build missing" page. Run `SITE_URL=https://d111111abcdef8.cloudfront.net npm run build` before `cdk deploy`.',
    );
    // The first deploy of a stage without a domain has no site to replace and no URL to build for.
    const first = synthPlatform({ demo: false, siteUrl: undefined }, noBuild);
    expect(
      Annotations.fromStack(first.stacks.site).findWarning('*', Match.stringLikeRegexp('has no index.html')),
    ).toHaveLength(1);
    // A demo stage (a fresh clone's and CI's `dev`) synthesizes with the placeholder page too.
    const demo = synthPlatform({ demo: true }, noBuild);
    expect(
      Annotations.fromStack(demo.stacks.site).findWarning('*', Match.stringLikeRegexp('has no index.html')),
    ).toHaveLength(1);
  });

  it("refuses a build made for another site URL than the stage's, and one that does not say", () => {
    const other = mkdtempSync(path.join(tmpdir(), 'web-dist-other-'));
    cpSync(fixtureBuildDir, other, { recursive: true });
    writeFileSync(
      path.join(other, 'site-url.json'),
      JSON.stringify({ siteUrl: 'https://d222222abcdef8.cloudfront.net' }),
    );
    expect(() => synthPlatform({ demo: false }, { buildDir: other })).toThrow(
      /was made for SITE_URL=https:\/\/d222222abcdef8\.cloudfront\.net, but this stage's siteUrl is https:\/\/d111111abcdef8\.cloudfront\.net: its canonical URLs, sitemap and robots\.txt would name the other site\. Run `SITE_URL=https:\/\/d111111abcdef8\.cloudfront\.net npm run build`/,
    );
    // The stage it was made for takes it; a demo stage takes any.
    expect(() =>
      synthPlatform({ demo: false, siteUrl: 'https://d222222abcdef8.cloudfront.net' }, { buildDir: other }),
    ).not.toThrow();
    expect(() => synthPlatform({ demo: true }, { buildDir: other })).not.toThrow();
    rmSync(path.join(other, 'site-url.json'));
    expect(() => synthPlatform({ demo: false }, { buildDir: other })).toThrow(/has no site-url\.json/);
  });
});
