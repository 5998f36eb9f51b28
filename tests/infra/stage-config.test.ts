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
    expect(() => parseStageConfig({ ...dev, domainName: 'app.platform.example' })).toThrow(
      /certificateArn: is required when domainName is set/,
    );
    expect(() => parseStageConfig({ ...dev, certificateArn })).toThrow(
      /domainName: is required when certificateArn is set/,
    );
    expect(parseStageConfig({ ...dev, domainName: 'app.platform.example', certificateArn }).domainName).toBe(
      'app.platform.example',
    );
  });

  it('rejects a certificate outside us-east-1, which CloudFront cannot use', () => {
    expect(() =>
      parseStageConfig({
        ...dev,
        domainName: 'app.platform.example',
        certificateArn: certificateArn.replace('us-east-1', 'eu-central-1'),
      }),
    ).toThrow(/certificateArn: must be an ACM certificate ARN in us-east-1/);
  });
});
