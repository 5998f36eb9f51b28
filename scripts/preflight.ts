import { awsPreflightPorts } from './preflight/aws.ts';
import { runPreflight } from './preflight/checks.ts';
import { exitStatus, formatFindings } from './preflight/findings.ts';
import { stageCommand } from './stage-command.ts';

// npm run preflight -- --stage <name>
// Checks, with read-only AWS calls and the operator's credentials, what a first deploy of the
// stage needs (docs/deploying.md, "Preflight"); prints what is missing and how to fix it, and exits
// 1 when anything is (warnings alone exit 0). Run it before the first deploy and again after it.

const usage = `Usage: npm run preflight -- --stage <name> [--cdk-json FILE]

  --stage      the stage in cdk.json context "stages" or infra/stage-config.ts
  --cdk-json   the CDK app's cdk.json (default cdk.json)

Exit status: 0 nothing missing (warnings allowed), 1 something missing, 2 usage or configuration error.`;

async function main(): Promise<number> {
  const command = stageCommand(usage);
  if ('exit' in command) return command.exit;
  const { config } = command;
  const ports = awsPreflightPorts(config.region);
  try {
    const findings = await runPreflight(config, ports);
    console.log(formatFindings(config, findings));
    return exitStatus(findings);
  } finally {
    ports.close();
  }
}

process.exitCode = await main();
