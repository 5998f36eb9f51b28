import { parseArgs } from 'node:util';
import { loadStageConfig } from '#infra/auth0/provision/stage.ts';
import type { StageConfig } from '#infra/stage-config.ts';

/**
 * The command line of an operator script that acts on one stage: `--stage <name>`,
 * `--cdk-json FILE` (default cdk.json), `--help` and the script's own boolean flags. When it
 * cannot go on it has printed why (or the usage, for --help) and answers the exit status: 0 for
 * --help, 2 for a usage or stage-configuration error.
 */
export function stageCommand<Flag extends string>(
  usage: string,
  flags: readonly Flag[] = [],
  args: string[] = process.argv.slice(2),
): { config: StageConfig; flags: Record<Flag, boolean> } | { exit: 0 | 2 } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        stage: { type: 'string' },
        'cdk-json': { type: 'string', default: 'cdk.json' },
        help: { type: 'boolean', default: false },
        ...Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean', default: false }])),
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return { exit: 2 };
  }
  if (values.help) {
    console.log(usage);
    return { exit: 0 };
  }
  if (typeof values.stage !== 'string' || values.stage === '') {
    console.error(`--stage is required\n\n${usage}`);
    return { exit: 2 };
  }
  try {
    return {
      config: loadStageConfig(values.stage, String(values['cdk-json'])),
      flags: Object.fromEntries(flags.map((flag) => [flag, values[flag] === true])) as Record<Flag, boolean>,
    };
  } catch (error) {
    console.error((error as Error).message);
    return { exit: 2 };
  }
}
