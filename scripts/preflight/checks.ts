import type { StageConfig } from '#infra/stage-config.ts';
import { bootstrapChecks, edgeRegion } from './bootstrap.ts';
import type { Finding } from './findings.ts';
import { concurrencyCheck, type LambdaAccountPort } from './lambda-concurrency.ts';
import { type SecretsPort, secretChecks } from './secrets.ts';
import { type SesPort, sesChecks } from './ses.ts';
import { type CertificatePort, type StacksPort, siteAddressCheck, siteChecks } from './site.ts';

// What a first deploy of a stage needs from the AWS account, checked with read-only calls through
// the ports below (scripts/preflight/aws.ts implements them with the AWS SDK clients), one file per
// family of checks: bootstrap.ts, lambda-concurrency.ts, ses.ts, site.ts, secrets.ts. Each finding
// (findings.ts) is ok, missing (the deploy or the stage would fail: the command exits non-zero),
// warning (the deploy can go ahead; something waits on someone else), later (created by the first
// deploy, to do after it) or a note.

export interface PreflightPorts {
  lambda: LambdaAccountPort;
  ses: SesPort;
  certificates: CertificatePort;
  secrets: SecretsPort;
  /** CloudFormation in the stage's region. */
  stacks: StacksPort;
  /** CloudFormation in us-east-1 (the edge stack's region). */
  edgeStacks: StacksPort;
}

/** Every check of the stage, in the order an operator fixes them. */
export async function runPreflight(config: StageConfig, ports: PreflightPorts): Promise<Finding[]> {
  const secrets = await secretChecks(config, ports.secrets);
  return [
    ...(await bootstrapChecks(config, { [edgeRegion]: ports.edgeStacks, [config.region]: ports.stacks })),
    ...(await concurrencyCheck(config, ports.lambda)),
    ...(await sesChecks(config, ports.ses, secrets.deployed)),
    ...(await siteChecks(config, ports.certificates)),
    ...(await siteAddressCheck(config, ports.stacks)),
    ...secrets.findings,
  ];
}
