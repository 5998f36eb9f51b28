import { Annotations, type App, Aspects, type Environment } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { RetainExceptOnCreate } from '#infra/retained.ts';
import { readWebBuild, type WebBuild } from '#infra/site/web-build.ts';
import { BackendStack } from '#infra/stacks/backend-stack.ts';
import { DataStack } from '#infra/stacks/data-stack.ts';
import { EdgeStack } from '#infra/stacks/edge-stack.ts';
import { SiteStack } from '#infra/stacks/site-stack.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { routes } from '#lambdas/routes.ts';

export interface PlatformOptions {
  /** The web build to deploy; default: `web/dist`, or a placeholder page when it is missing. */
  webBuild?: WebBuild;
  /** The origin secret's version CloudFront sends (`-c originSecretVersion=...`, a rotation: docs/operating.md). */
  originSecretVersionId?: string;
}

/**
 * The product's stacks for one stage: stateful data, the stateless backend that uses it, and the
 * site in front of both.
 */
export function buildPlatform(
  app: App,
  config: StageConfig,
  env: Environment = { region: config.region },
  options: PlatformOptions = {},
) {
  const prefix = `Platform-${config.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { env, emailDomain: config.email.domain });
  const backend = new BackendStack(app, `${prefix}-Backend`, {
    env,
    config,
    targets: {
      tables: data.data.tables,
      secrets: data.secrets.secrets,
      email: {
        domain: config.email.domain,
        sender: config.email.sender,
        configurationSetName: data.email.configurationSetName,
        sandboxRecipients: config.email.sandboxRecipients,
      },
    },
    logRetention: config.logRetentionDays as RetentionDays,
  });
  // A stage without its own web ACL gets ours (in us-east-1, where CloudFront's ACLs live); a
  // stage that brings one must carry the per-IP rule in it (docs/deploying.md).
  const edge = config.webAclArn
    ? undefined
    : new EdgeStack(app, `${prefix}-Edge`, {
        env: { ...env, region: 'us-east-1' },
        routes,
        stage: config.stage,
      });
  const webAclArn = config.webAclArn ?? edge?.firewall.webAcl.attrArn;
  const site = new SiteStack(app, `${prefix}-Site`, {
    env,
    crossRegionReferences: Boolean(edge),
    build: options.webBuild ?? readWebBuild(),
    apiDomain: backend.apiDomain,
    originSecret: data.secrets.secrets.originVerify,
    ...(options.originSecretVersionId ? { originSecretVersionId: options.originSecretVersionId } : {}),
    webConfig: {
      stage: config.stage,
      auth0: {
        domain: config.auth0.domain,
        clientId: config.auth0.spaClientId,
        audience: config.auth0.audience,
        claimsNamespace: config.auth0.claimsNamespace,
      },
      persona: { environmentId: config.persona.environmentId },
      realtime: {
        httpDomain: backend.realtime.api.httpDns,
        realtimeDomain: backend.realtime.api.realtimeDns,
      },
    },
    ...(config.domainName ? { domainName: config.domainName } : {}),
    ...(config.certificateArn ? { certificateArn: config.certificateArn } : {}),
    ...(webAclArn ? { webAclArn } : {}),
    demo: config.demo,
    ...(config.siteUrl ? { siteUrl: config.siteUrl } : {}),
  });
  // Nothing outlives a failed first create (infra/retained.ts).
  for (const stack of [data, backend, edge, site])
    if (stack) Aspects.of(stack).add(new RetainExceptOnCreate());
  if (!config.siteUrl) {
    // The first of the two deploys of a stage without a custom domain (docs/deploying.md).
    Annotations.of(backend).addWarningV2(
      'platform:siteUrlPending',
      `Stage ${config.stage} has no siteUrl yet: after this deploy set siteUrl to https://<the ${prefix}-Site DistributionDomainName output>, then provision Auth0, build the web with SITE_URL and deploy again. Until then registration, decision and deletion emails fail (APP_URL is unset).`,
    );
  }
  return { data, backend, edge, site };
}
