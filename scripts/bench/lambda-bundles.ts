import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { lambdaBundling } from '#infra/api/platform-function.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { routes } from '#lambdas/routes.ts';

// Issue 3 budgets, measured (never asserted by a timed test): each handler bundle built like the
// CDK builds it (esbuild, minified, ESM, AWS SDK bundled) is at most 500 KB, and importing it
// (a cold start's module phase) takes at most 60 ms median on this machine.

export const budgets = { bundleBytes: 500 * 1000, importMs: 60 };

export interface BundleFigure {
  handler: string;
  bytes: number;
  importMedianMs: number;
}

// Import needs configuration (module-scope clients read it), never a reachable service.
const importEnv = {
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  CONSENT_LEDGER_TABLE: 'bench',
  KYC_STATE_TABLE: 'bench',
  SUBMISSIONS_TABLE: 'bench',
  EVENT_BUS_NAME: 'bench',
  SES_SENDER: 'bench@example.com',
  AUTH0_DOMAIN: 'bench.eu.auth0.com',
  AUTH0_AUDIENCE: 'https://api.bench',
  CLAIMS_NAMESPACE: 'https://bench/',
  AUTH0_REGISTRATION_SECRET_ID: 'bench',
  AUTH0_READ_USERS_SECRET_ID: 'bench',
  AUTH0_VERIFICATION_EMAIL_SECRET_ID: 'bench',
  AUTH0_KYC_SYNC_SECRET_ID: 'bench',
  PERSONA_API_URL: 'https://withpersona.com',
  PERSONA_TEMPLATE_ID: 'itmpl_bench',
  PERSONA_ENVIRONMENT_ID: 'env_bench',
  PERSONA_API_KEY_SECRET_ID: 'bench',
  PERSONA_WEBHOOK_SECRET_ID: 'bench',
  APP_URL: 'https://bench.example',
  OPERATIONS_EMAIL: 'ops@bench.example',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export async function measureLambdaBundles(runs = 7): Promise<BundleFigure[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'bench-lambdas-'));
  const handlers = [...new Set([...routes, ...eventRules].map((def) => def.handler))];
  const figures: BundleFigure[] = [];
  try {
    for (const handler of handlers) {
      const entry = `lambdas/handlers/${handler}.ts`;
      if (!existsSync(entry)) throw new Error(`${entry} is missing`);
      const outfile = join(outDir, `${handler}.mjs`);
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        minify: lambdaBundling.minify,
        format: 'esm',
        platform: 'node',
        target: lambdaBundling.target,
        mainFields: [...lambdaBundling.mainFields],
        banner: { js: lambdaBundling.banner },
        alias: { ...lambdaBundling.alias },
        logLevel: 'error',
      });
      const probe = join(outDir, `${handler}.probe.mjs`);
      await writeFile(
        probe,
        `const t = performance.now(); await import(${JSON.stringify(outfile)}); process.stdout.write(String(performance.now() - t));`,
      );
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const out = execFileSync(process.execPath, [probe], {
          env: { ...process.env, ...importEnv },
        }).toString();
        times.push(Number(out));
      }
      figures.push({ handler, bytes: (await stat(outfile)).size, importMedianMs: median(times) });
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
  return figures;
}
