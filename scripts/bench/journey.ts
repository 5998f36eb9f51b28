import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JourneyStep } from '#scripts/lib/journey-steps.ts';
import type { Row } from './report.ts';

// Issue 13: the journey's wall time, register -> approved dashboard, per step, and the slowest
// step named. Runs the journey test itself (tests/e2e/kyc-journey.stack.test.ts, the commercial
// journey) on its own stack (the test ports + STACK_PORT_OFFSET + 300) against the build the bench
// just made; the test marks its steps (scripts/lib/journey-steps.ts). The screens' own designed
// waits are named in the step (the approved screen waits 3 s before the dashboard; the decision
// reaches the status screen by push, ADR 0060); a step that is only such a wait is never named the
// slowest. No budget.

/**
 * Steps that are mostly a wait the screens make by design (the approved screen shows for 3 s,
 * axe included, before the dashboard): reported, never named the slowest.
 */
const designedWait = new Set(['approved screen -> /dashboard (the screen waits 3 s by design)']);

export async function measureJourney(log: (line: string) => void): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-journey-'));
  const file = join(dir, 'steps.json');
  try {
    log('journey: running the commercial journey test (one run)');
    const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + 300;
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          'node_modules/vitest/vitest.mjs',
          'run',
          '--project',
          'stack',
          'tests/e2e/kyc-journey.stack.test.ts',
          '-t',
          'commercial: consent',
        ],
        {
          env: {
            ...process.env,
            JOURNEY_STEPS_FILE: file,
            STACK_SKIP_BUILD: '1',
            STACK_PORT_OFFSET: String(offset),
          },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      child.on('exit', resolve);
    });
    const steps = JSON.parse(await readFile(file, 'utf8').catch(() => '[]')) as JourneyStep[];
    const total = steps.reduce((sum, step) => sum + step.ms, 0);
    const slowest = steps.filter((step) => !designedWait.has(step.name)).sort((a, b) => b.ms - a.ms)[0];
    return [
      {
        area: 'journey',
        metric: 'register -> approved dashboard (commercial journey test)',
        measured:
          code === 0 && steps.length > 0
            ? `${(total / 1000).toFixed(1)} s in ${steps.length} steps`
            : `the journey failed (exit ${code})`,
        budget: 'completes; reported per step',
        pass: code === 0 && steps.length > 0,
      },
      ...steps.map(
        (step): Row => ({
          area: 'journey',
          metric: `  ${step.name}`,
          measured: `${(step.ms / 1000).toFixed(2)} s${designedWait.has(step.name) ? ' (a designed wait)' : ''}`,
          budget: '-',
          pass: null,
        }),
      ),
      {
        area: 'journey',
        metric: 'slowest step (designed-wait steps excluded)',
        measured: slowest ? `${slowest.name}: ${(slowest.ms / 1000).toFixed(2)} s` : 'n/a',
        budget: '-',
        pass: null,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
