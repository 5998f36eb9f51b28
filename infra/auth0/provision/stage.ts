import { readFileSync } from 'node:fs';
import { exampleStages, parseStageConfig, type StageConfig } from '#infra/stage-config.ts';

// The stage's values, from the same places the CDK app reads them (bin/app.ts): cdk.json context
// `stages.<name>` first, then the stages defined in infra/stage-config.ts.

export function loadStageConfig(stage: string, cdkJsonPath: string): StageConfig {
  let fromContext: unknown;
  try {
    const cdkJson = JSON.parse(readFileSync(cdkJsonPath, 'utf8')) as {
      context?: { stages?: Record<string, unknown> };
    };
    fromContext = cdkJson.context?.stages?.[stage];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const raw = fromContext ?? exampleStages[stage];
  if (!raw) {
    throw new Error(`Unknown stage "${stage}": add it to cdk.json context "stages" or infra/stage-config.ts`);
  }
  return parseStageConfig(raw);
}
