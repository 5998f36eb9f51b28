import { describe, expect, it } from 'vitest';
import { exampleStages, parseStageConfig } from '#infra/stage-config.ts';

const dev = exampleStages.dev;
const certificateArn = 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012';

describe('the stage configuration', () => {
  it('accepts the example stage as it is', () => {
    expect(parseStageConfig(dev).stage).toBe('dev');
  });

  it('names every bad key at once', () => {
    const error = (() => {
      try {
        parseStageConfig({ ...dev, webAclArn: 'acl', alarmEmail: 'nobody', region: '', surprise: true });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error).toMatch(/webAclArn: .*CLOUDFRONT/);
    expect(error).toMatch(/alarmEmail: /);
    expect(error).toMatch(/region: /);
    expect(error).toMatch(/surprise/);
  });

  it('requires a domain name and its certificate together', () => {
    const siteUrl = 'https://app.platform.example';
    expect(() => parseStageConfig({ ...dev, siteUrl, domainName: 'app.platform.example' })).toThrow(
      /certificateArn: is required when domainName is set/,
    );
    expect(() => parseStageConfig({ ...dev, certificateArn })).toThrow(
      /domainName: is required when certificateArn is set/,
    );
    expect(
      parseStageConfig({ ...dev, siteUrl, domainName: 'app.platform.example', certificateArn }).domainName,
    ).toBe('app.platform.example');
  });

  it('rejects a certificate outside us-east-1, which CloudFront cannot use', () => {
    expect(() =>
      parseStageConfig({
        ...dev,
        siteUrl: 'https://app.platform.example',
        domainName: 'app.platform.example',
        certificateArn: certificateArn.replace('us-east-1', 'eu-central-1'),
      }),
    ).toThrow(/certificateArn: must be an ACM certificate ARN in us-east-1/);
  });
});

/** The message parseStageConfig throws for a stage with these values (or undefined if it passes). */
function refusal(overrides: Record<string, unknown>): string | undefined {
  try {
    parseStageConfig({ ...dev, ...overrides });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the stage configuration refuses at synthesis, naming the key', () => {
  it('a sender address outside email.domain, which SES would refuse to send from', () => {
    const email = { ...dev?.email, sender: 'no-reply@elsewhere.example' };
    expect(refusal({ email })).toMatch(
      /email\.sender: must be an address on email\.domain \(platform\.example\)/,
    );
    expect(refusal({ email: { ...email, sender: 'no-reply@mail.platform.example' } })).toMatch(
      /email\.sender/,
    );
    expect(refusal({ email: { ...email, sender: 'No-Reply@Platform.Example' } })).toBeUndefined();
  });

  it('a stage name that does not start with a letter, saying so', () => {
    for (const stage of ['1dev', '-dev', 'Dev', 'd', 'dev_1']) {
      expect(refusal({ stage }), stage).toMatch(/stage: must start with a lower-case letter/);
    }
    expect(refusal({ stage: 'dev-2' })).toBeUndefined();
  });

  it('a region that is not an AWS region name', () => {
    expect(refusal({ region: 'Frankfurt' })).toMatch(/region: must be an AWS region name/);
    expect(refusal({ region: 'ap-southeast-2' })).toBeUndefined();
  });

  it('a siteUrl that is not a bare https origin (links are built as siteUrl + path)', () => {
    for (const siteUrl of [
      'http://d111111abcdef8.cloudfront.net',
      'https://d111111abcdef8.cloudfront.net/',
      'https://d111111abcdef8.cloudfront.net/app',
      'https://d111111abcdef8.cloudfront.net?x=1',
      'd111111abcdef8.cloudfront.net',
    ]) {
      expect(refusal({ siteUrl }), siteUrl).toMatch(/siteUrl: must be an https origin/);
    }
  });

  it('a siteUrl the distribution does not answer at', () => {
    expect(refusal({ siteUrl: 'https://app.platform.example' })).toMatch(
      /siteUrl: without domainName must be the distribution's https:\/\/<id>\.cloudfront\.net/,
    );
    expect(
      refusal({
        siteUrl: 'https://www.platform.example',
        domainName: 'app.platform.example',
        certificateArn,
      }),
    ).toMatch(/siteUrl: must be https:\/\/app\.platform\.example/);
  });

  it('a claims namespace without its trailing slash, or on a domain Auth0 reserves', () => {
    const auth0 = (claimsNamespace: string) => ({ auth0: { ...dev?.auth0, claimsNamespace } });
    expect(refusal(auth0('https://platform.example'))).toMatch(/auth0\.claimsNamespace: must end with "\/"/);
    expect(refusal(auth0('https://tenant.eu.auth0.com/'))).toMatch(
      /auth0\.claimsNamespace: must not be on auth0\.com/,
    );
  });

  it('an Auth0 domain with a scheme or path, and a custom domain without the canonical tenant domain', () => {
    const auth0 = (values: Record<string, string>) => ({ auth0: { ...dev?.auth0, ...values } });
    expect(refusal(auth0({ domain: 'https://platform-dev.eu.auth0.com/' }))).toMatch(
      /auth0\.domain: must be a bare lower-case host name/,
    );
    expect(refusal(auth0({ domain: 'login.platform.example' }))).toMatch(
      /auth0\.tenantDomain: is required when auth0\.domain \(login\.platform\.example\) is a custom domain/,
    );
    expect(
      refusal(auth0({ domain: 'login.platform.example', tenantDomain: 'login.platform.example' })),
    ).toMatch(/auth0\.tenantDomain: must be the tenant's canonical domain/);
    expect(refusal(auth0({ tenantDomain: 'other-tenant.eu.auth0.com' }))).toMatch(
      /auth0\.tenantDomain: names another tenant than auth0\.domain/,
    );
  });

  it('a certificate of another account than the stage', () => {
    expect(
      refusal({
        account: '222222222222',
        siteUrl: 'https://app.platform.example',
        domainName: 'app.platform.example',
        certificateArn,
      }),
    ).toMatch(/certificateArn: must be in the stage's account 222222222222, not 111111111111/);
  });

  it('a Persona API that is not https', () => {
    expect(refusal({ persona: { ...dev?.persona, apiUrl: 'http://withpersona.com' } })).toMatch(
      /persona\.apiUrl: must be an https URL/,
    );
  });
});

describe('the two Auth0 domains', () => {
  it('separates the custom domain users sign in at from the canonical one the backend manages', () => {
    const config = parseStageConfig({
      ...dev,
      auth0: { ...dev?.auth0, domain: 'login.platform.example', tenantDomain: 'platform-dev.eu.auth0.com' },
    });
    expect(config.auth0).toMatchObject({
      domain: 'login.platform.example',
      tenantDomain: 'platform-dev.eu.auth0.com',
    });
  });

  it('uses the one domain for both when the tenant has no custom domain', () => {
    expect(parseStageConfig(dev).auth0.tenantDomain).toBe('platform-dev.eu.auth0.com');
  });
});
