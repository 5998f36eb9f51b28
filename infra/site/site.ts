import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  Annotations,
  DefaultStackSynthesizer,
  Duration,
  SecretValue,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccessLevel,
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { logRetentionDays } from '#contracts/retention.ts';
import { type WebConfig, webConfig } from '#contracts/web-config.ts';
import { retained } from '#infra/retained.ts';
import {
  appShellPage,
  notFoundPage,
  notFoundStatusCode,
  pageFile,
  pathMappingCode,
  type SiteRoutes,
  siteRoutes,
} from '#infra/site/path-mapping.ts';
import { type SiteHeaders, siteHeaderInputs, siteHeaders } from '#infra/site/security-headers.ts';
import type { WebBuild } from '#infra/site/web-build.ts';
import { originSecretSendKey, originVerifyHeader, viewerIpFunctionCode } from '#lambdas/http/edge.ts';

export interface SiteProps {
  build: WebBuild;
  /** Host name of the HTTP API (`<id>.execute-api.<region>.amazonaws.com`). */
  apiDomain: string;
  /** The origin secret (JSON, `current` is sent): CloudFront adds it to every `/api/*` request. */
  originSecret: ISecret;
  /**
   * Pins the origin header to this version of the secret. CloudFormation resolves a secret only
   * when the resource changes: a rotation passes the new version so the deploy updates CloudFront.
   */
  originSecretVersionId?: string;
  /** The values the web reads from `/config.json`. */
  config: WebConfig;
  domainName?: string;
  certificateArn?: string;
  webAclArn?: string;
  /** A demo stage (stage config `demo`) may deploy a build with placeholder content. */
  demo?: boolean;
  /**
   * The stage's `siteUrl`: a stage that is not a demo deploys only a build made for it (its
   * site-url.json), and no missing build; unset on the first deploy of a stage without a domain.
   */
  siteUrl?: string;
}

/**
 * The public site: a private bucket behind CloudFront (origin access control), `/api/*` forwarded
 * to the HTTP API on the same origin, the security headers on every response, and the web build
 * plus `/config.json` deployed into the bucket.
 */
export class Site extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  readonly logBucket: Bucket;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const { build } = props;
    refuseUnshippableBuild(build, { demo: props.demo === true, siteUrl: props.siteUrl });

    this.logBucket = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with ACLs: the bucket must accept them.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      // The CDN's access logs hold viewers' addresses: kept as long as the retention table says (ADR 0077).
      lifecycleRules: [
        { expiration: Duration.days(logRetentionDays), noncurrentVersionExpiration: Duration.days(30) },
      ],
      removalPolicy: retained,
    });
    Validations.of(this.logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });

    this.bucket = new Bucket(this, 'Content', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 'site-bucket/',
      // Old chunks stay readable for a while after a deploy (tabs still running the previous build).
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(30) }],
      removalPolicy: retained,
    });

    const validatedConfig = webConfig.parse(props.config);

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'CSP, HSTS and friends for every response of the site and the API',
      ...responseHeadersBehavior(
        siteHeaders(siteHeaderInputs(validatedConfig, build.scriptHashes, { https: true })),
      ),
    });

    if (!build.missing) warnAboutMissingPages(this, build.dir, siteRoutes);
    const pathMapping = new CloudFrontFunction(this, 'PathMapping', {
      comment: 'Prerendered pages, the app shell for app routes, 301 for old URLs, else the 404 page',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(pathMappingCode(siteRoutes)),
    });
    const notFoundStatus = new CloudFrontFunction(this, 'NotFoundStatus', {
      comment: 'Answers the prerendered 404 page with status 404',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(notFoundStatusCode(siteRoutes)),
    });

    // The viewer's IP for the API (ledger, per-IP limits): written on every /api/* request,
    // replacing the viewer's own copy (lambdas/http/edge.ts, ADR 0073).
    const viewerIp = new CloudFrontFunction(this, 'ViewerIp', {
      comment: "Writes the viewer's IP into x-viewer-ip for the API, replacing any copy the viewer sent",
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(viewerIpFunctionCode),
    });

    const certificate = props.certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : undefined;

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Platform site (${validatedConfig.stage})`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      // The minimum TLS version applies to a custom certificate only (the default *.cloudfront.net
      // certificate's policy is fixed by CloudFront).
      ...(props.domainName && certificate
        ? {
            domainNames: [props.domainName],
            certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      // Deliberately no errorResponses: they would also turn the API's own 403/404 problem+json and
      // missing chunks into HTML. The path-mapping functions answer unknown pages with the 404 page.
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
          // LIST lets S3 answer 404 (not 403) for a missing object, so a missing chunk is a 404.
          originAccessLevels: [AccessLevel.READ, AccessLevel.LIST],
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [
          { function: pathMapping, eventType: FunctionEventType.VIEWER_REQUEST },
          { function: notFoundStatus, eventType: FunctionEventType.VIEWER_RESPONSE },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(props.apiDomain, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
            // The API refuses any request without it (ADR 0032): so every call passes this
            // distribution's headers and WAF. CloudFront overwrites a viewer's copy of the header.
            customHeaders: {
              [originVerifyHeader]: SecretValue.secretsManager(props.originSecret.secretArn, {
                jsonField: originSecretSendKey,
                ...(props.originSecretVersionId ? { versionId: props.originSecretVersionId } : {}),
              }).unsafeUnwrap(),
            },
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          // Nothing from the API is cached; all viewer headers (Authorization included, which the
          // managed AllViewer policies may forward), query strings and the body reach the API, but
          // not Host: API Gateway routes on its own host name. This policy adds none of
          // CloudFront's own headers (CloudFront-Viewer-Address would need a policy naming it, and
          // one that forwards every viewer header but Host cannot): the ViewerIp function writes
          // the viewer's IP as a viewer header, which the policy forwards.
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ function: viewerIp, eventType: FunctionEventType.VIEWER_REQUEST }],
          responseHeadersPolicy: headers,
          compress: true,
        },
      },
    });
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'defaultRootObject is set and the path-mapping function rewrites every path ending in / to an index.html, so S3 never lists.',
    );
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The product serves organizations worldwide; no country is excluded by policy.',
    });
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'This stage has no webAclArn: WAF is optional per stage (a CLOUDFRONT-scope ACL lives in us-east-1); API Gateway throttling limits every route.',
      });
    }
    if (!certificate) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the default *.cloudfront.net certificate is used, whose minimum TLS version CloudFront fixes; stages with domainName use TLSv1.2_2021.',
      });
    }

    // Hashed assets first (immutable; never pruned, so tabs on the previous build still load their
    // chunks), then the HTML and config.json (revalidated on every visit) and the invalidation.
    const assetsDir = path.join(build.dir, 'assets');
    const assets = existsSync(assetsDir)
      ? new BucketDeployment(this, 'DeployAssets', {
          sources: [Source.asset(assetsDir)],
          destinationBucket: this.bucket,
          destinationKeyPrefix: 'assets/',
          prune: false,
          cacheControl: [
            CacheControl.setPublic(),
            CacheControl.maxAge(Duration.days(365)),
            CacheControl.immutable(),
          ],
          memoryLimit: 512,
        })
      : undefined;
    const pages = new BucketDeployment(this, 'DeployPages', {
      sources: [
        Source.asset(build.dir, { exclude: ['assets', 'assets/**'] }),
        Source.jsonData('config.json', validatedConfig),
      ],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      prune: true,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    if (assets) pages.node.addDependency(assets);
    acknowledgeDeploymentHandler(Stack.of(this), this.bucket);
  }
}

/**
 * What a stage that is not a demo refuses to deploy, at synthesis, before anything changes:
 * - no build (the site would be replaced by the "Web build missing" page), unless the stage has no
 *   `siteUrl` yet: its first deploy, where there is no site to replace and no URL to build for;
 * - a local build (`npm run build:local`, a test build: placeholder company details, an example
 *   canonical URL), or one that cannot say what it carries (no placeholders.json);
 * - a build made for another URL than the stage's `siteUrl` (its site-url.json), or one that
 *   cannot say which.
 * A demo stage deploys any of them.
 */
function refuseUnshippableBuild(build: WebBuild, stage: { demo: boolean; siteUrl: string | undefined }) {
  if (stage.demo) return;
  const rebuild = `Run \`SITE_URL=${stage.siteUrl ?? '<siteUrl>'} npm run build\` before \`cdk deploy\`.`;
  if (build.missing) {
    if (!stage.siteUrl) return;
    throw new Error(
      `web/dist has no index.html, so this deploy would replace the site with the "Web build missing" page. ${rebuild}`,
    );
  }
  if (build.placeholders === undefined) {
    throw new Error(
      `The web build in ${build.dir} has no placeholders.json, so nothing says it is a production build. ${rebuild}`,
    );
  }
  if (build.placeholders.length > 0) {
    throw new Error(
      `The web build in ${build.dir} is a local build with placeholder content, which only a stage marked \`demo\` may deploy:\n` +
        build.placeholders.map((line) => `  - ${line}`).join('\n') +
        `\nFill them in and run \`SITE_URL=${stage.siteUrl ?? '<siteUrl>'} npm run build\` (not \`npm run build:local\`) before \`cdk deploy\`.`,
    );
  }
  if (!stage.siteUrl) return;
  if (build.siteUrl === undefined) {
    throw new Error(
      `The web build in ${build.dir} has no site-url.json, so nothing says which site it was built for. ${rebuild}`,
    );
  }
  if (build.siteUrl !== stage.siteUrl) {
    throw new Error(
      `The web build in ${build.dir} was made for SITE_URL=${build.siteUrl}, but this stage's siteUrl is ${stage.siteUrl}: its canonical URLs, sitemap and robots.txt would name the other site. ${rebuild}`,
    );
  }
}

const referrerPolicies: Record<SiteHeaders['referrerPolicy'], HeadersReferrerPolicy> = {
  'strict-origin-when-cross-origin': HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
};

/** A CloudFront response headers policy that sends exactly the site's header set. */
function responseHeadersBehavior(headers: SiteHeaders) {
  const hsts = headers.strictTransportSecurity;
  return {
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: headers.contentSecurityPolicy, override: true },
      ...(hsts
        ? {
            strictTransportSecurity: {
              accessControlMaxAge: Duration.seconds(hsts.maxAgeSeconds),
              includeSubdomains: hsts.includeSubdomains,
              preload: hsts.preload,
              override: true,
            },
          }
        : {}),
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption[headers.frameOptions], override: true },
      referrerPolicy: { referrerPolicy: referrerPolicies[headers.referrerPolicy], override: true },
    },
    customHeadersBehavior: {
      customHeaders: [
        { header: 'Permissions-Policy', value: headers.permissionsPolicy, override: true },
        { header: 'Cross-Origin-Opener-Policy', value: headers.crossOriginOpenerPolicy, override: true },
      ],
    },
  };
}

/**
 * The functions send every registry page to its file and other paths to the 404 page and the app
 * shell: a build older than the registry would answer a page with S3's bare 404. Warned at synth
 * (like a missing build), so `cdk deploy` says to rebuild.
 */
function warnAboutMissingPages(scope: Construct, dir: string, routes: SiteRoutes) {
  const files = [...routes.pages.map(pageFile), notFoundPage, ...(routes.app.length ? [appShellPage] : [])];
  const missing = files.filter((file) => !existsSync(path.join(dir, file)));
  if (missing.length === 0) return;
  Annotations.of(scope).addWarningV2(
    'platform:web-build-stale',
    `The web build in ${dir} lacks ${missing.join(', ')}, which the route registry serves. Run \`npm run build\` before \`cdk deploy\`.`,
  );
}

/**
 * The BucketDeployment handler is a CDK-provided singleton whose role and runtime CDK decides:
 * acknowledge each of its findings on it, with the exact resources it may touch.
 */
function acknowledgeDeploymentHandler(stack: Stack, bucket: Bucket) {
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const assetBucket = `cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${account}-${region}`;
  const siteBucket = stack.getLogicalId(bucket.node.defaultChild as CfnBucket);
  const copy =
    'CDK grants the deployment handler read on the asset bucket and read/write/delete on the site bucket';
  const reasons: Record<string, string> = {
    'AwsSolutions-L1': "CDK's BucketDeployment handler: CDK pins its Python runtime.",
    'Serverless-LambdaLatestVersion': "CDK's BucketDeployment handler: CDK pins its Python runtime.",
    'Serverless-LambdaDLQ': 'Invoked synchronously by CloudFormation, which reports failures itself.',
    'Serverless-LambdaTracing': 'A deploy-time custom resource, not part of any request path.',
    'Serverless-LambdaDefaultMemorySize': 'Memory is set (512 MB) through BucketDeployment.memoryLimit.',
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      'CDK-managed role of the deployment handler; it only writes its own logs with it.',
    'AwsSolutions-IAM5[Action::s3:GetObject*]': copy,
    'AwsSolutions-IAM5[Action::s3:GetBucket*]': copy,
    'AwsSolutions-IAM5[Action::s3:List*]': copy,
    'AwsSolutions-IAM5[Action::s3:DeleteObject*]': `${copy} (prune removes files of the previous build).`,
    'AwsSolutions-IAM5[Action::s3:Abort*]': `${copy} (multipart uploads).`,
    [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetBucket}/*]`]:
      'The CDK asset bucket holds the zipped web build the handler copies from.',
    [`AwsSolutions-IAM5[Resource::<${siteBucket}.Arn>/*]`]:
      "Every object of the site bucket is the handler's to write.",
    'AwsSolutions-IAM5[Resource::*]':
      'cloudfront:CreateInvalidation after a deploy (no narrower resource is granted by CDK).',
  };
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    for (const [id, reason] of Object.entries(reasons)) Validations.of(child).acknowledge({ id, reason });
  }
}
