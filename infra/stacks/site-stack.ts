import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { WebConfig } from '#contracts/web-config.ts';
import { Site } from '#infra/site/site.ts';
import type { WebBuild } from '#infra/site/web-build.ts';

export interface SiteStackProps extends StackProps {
  build: WebBuild;
  apiDomain: string;
  originSecret: ISecret;
  originSecretVersionId?: string;
  webConfig: WebConfig;
  domainName?: string;
  certificateArn?: string;
  webAclArn?: string;
  demo?: boolean;
  /** The stage's `siteUrl` (unset on the first deploy of a stage without a domain). */
  siteUrl?: string;
}

/** The CloudFront site in front of the web build and the HTTP API. */
export class SiteStack extends Stack {
  readonly site: Site;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const { build, apiDomain, webConfig, domainName, certificateArn, webAclArn } = props;
    this.site = new Site(this, 'Site', {
      build,
      apiDomain,
      originSecret: props.originSecret,
      ...(props.originSecretVersionId ? { originSecretVersionId: props.originSecretVersionId } : {}),
      config: webConfig,
      ...(domainName ? { domainName } : {}),
      ...(certificateArn ? { certificateArn } : {}),
      ...(webAclArn ? { webAclArn } : {}),
      demo: props.demo === true,
      ...(props.siteUrl ? { siteUrl: props.siteUrl } : {}),
    });
    // Only a demo stage or a stage's first deploy gets this far without a build (the Site refuses
    // any other): the placeholder page replaces nothing there, but say so.
    if (build.missing) {
      Annotations.of(this).addWarningV2(
        'platform:web-build-missing',
        'web/dist has no index.html: the site deploys a placeholder page. Run `SITE_URL=<siteUrl> npm run build` before `cdk deploy`.',
      );
    }
    new CfnOutput(this, 'DistributionDomainName', {
      description: 'Point the stage domain (CNAME/alias) here; the site and /api/* are served from it',
      value: this.site.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'DistributionId', { value: this.site.distribution.distributionId });
  }
}
