import type { StageConfig } from '#infra/stage-config.ts';
import { describeError, type Finding } from './findings.ts';
import type { StacksPort } from './site.ts';

// CDK deploys only into a bootstrapped environment (account and region): the stage's region, and
// us-east-1 for the edge stack (the web ACL) unless the stage brings its own `webAclArn`.

/** The stack `cdk bootstrap` creates (its default name and qualifier: cdk.json sets neither). */
export const toolkitStackName = 'CDKToolkit';
/** The oldest bootstrap version the synthesized templates accept (their CheckBootstrapVersion rule). */
export const minimumBootstrapVersion = 6;
/** CloudFront's region: where the edge stack is deployed whatever the stage's region. */
export const edgeRegion = 'us-east-1';

/** The regions the stage's stacks deploy to, each once. */
export function stageRegions(config: StageConfig): string[] {
  return [...new Set([config.region, ...(config.webAclArn ? [] : [edgeRegion])])];
}

/** The command that bootstraps (or upgrades) one region of the stage's account. */
export function bootstrapCommand(config: StageConfig, region: string): string {
  const account = config.account ?? '$(aws sts get-caller-identity --query Account --output text)';
  return `npx cdk bootstrap aws://${account}/${region}`;
}

/**
 * Each region's toolkit stack, through CloudFormation DescribeStacks in that region: it exists and
 * its `BootstrapVersion` output is recent enough.
 */
export async function bootstrapChecks(
  config: StageConfig,
  stacksIn: Record<string, StacksPort | undefined>,
): Promise<Finding[]> {
  const check = 'CDK bootstrap';
  const findings: Finding[] = [];
  for (const region of stageRegions(config)) {
    const why =
      region === config.region ? 'the stage' : `the edge stack Platform-${config.stage}-Edge (the web ACL)`;
    const stacks = stacksIn[region];
    let outputs: Record<string, string> | undefined;
    try {
      if (!stacks) throw new Error(`no CloudFormation client for ${region}`);
      outputs = await stacks.outputs(toolkitStackName);
    } catch (error) {
      findings.push({
        check,
        status: 'missing',
        detail: `could not read the stack ${toolkitStackName} in ${region} (${describeError(error)})`,
        fix: `Check by hand: aws cloudformation describe-stacks --region ${region} --stack-name ${toolkitStackName} --query "Stacks[0].Outputs[?OutputKey=='BootstrapVersion'].OutputValue" --output text`,
      });
      continue;
    }
    if (!outputs) {
      findings.push({
        check,
        status: 'missing',
        detail: `${region} is not bootstrapped (no ${toolkitStackName} stack): ${why} deploys there`,
        fix: bootstrapCommand(config, region),
      });
      continue;
    }
    const version = Number(outputs.BootstrapVersion);
    if (!Number.isInteger(version) || version < minimumBootstrapVersion) {
      findings.push({
        check,
        status: 'missing',
        detail: Number.isInteger(version)
          ? `${toolkitStackName} in ${region} is bootstrap version ${version}; the templates need ${minimumBootstrapVersion} or later`
          : `${toolkitStackName} in ${region} has no BootstrapVersion output (a bootstrap that failed?)`,
        fix: `${bootstrapCommand(config, region)} (it updates the existing bootstrap)`,
      });
      continue;
    }
    findings.push({ check, status: 'ok', detail: `${region} is bootstrapped (version ${version})` });
  }
  return findings;
}
