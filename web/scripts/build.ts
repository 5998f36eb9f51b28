import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeLocaleBuild } from './locale.ts';

// `npm run build` and `npm run build:local`: Vite's build (the client bundle, then the prerender
// with its checks of SITE_URL and the company details) into a staging folder beside the output,
// moved into place only once all of it succeeded. A failed build leaves the previous web/dist as
// it was: never an index.html without its placeholders.json and site-url.json, which every later
// synth of a stage would refuse (issue 24, ADR 0070).
// Each language is its own Vite build (ADR 0089): English into the staging folder, German beside
// it, then the German pages, chunks and manifest are merged into the English build.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const webDistDir = path.join(repoRoot, 'web', 'dist');
const viteBin = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');

export interface BuildWebOptions {
  /** Where the finished build goes (default web/dist); the staging folder is its sibling. */
  outDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra arguments for `vite build` (e.g. `--logLevel warn`). */
  viteArgs?: string[];
  /** The build's output: shown (default) or collected into the error of a failed build. */
  quiet?: boolean;
}

function run(args: string[], env: NodeJS.ProcessEnv, quiet: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`vite build failed (${signal ?? code})${quiet ? `:\n${output}` : ''}`)),
    );
  });
}

/** Builds the web into `outDir`, or changes nothing there and throws. */
export async function buildWeb(options: BuildWebOptions = {}): Promise<void> {
  const outDir = path.resolve(options.outDir ?? webDistDir);
  // Siblings of the output: on its filesystem, so each move is one rename.
  const staging = `${outDir}.staging-${process.pid}`;
  const previous = `${outDir}.previous-${process.pid}`;
  const stagingDe = `${outDir}.staging-de-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await rm(stagingDe, { recursive: true, force: true });
  const viteBuild = (locale: 'en' | 'de', into: string) =>
    run(
      [
        viteBin,
        'build',
        '--config',
        path.join(repoRoot, 'web', 'vite.config.ts'),
        '--outDir',
        into,
        '--emptyOutDir',
        ...(options.viteArgs ?? []),
      ],
      { ...(options.env ?? process.env), WEB_LOCALE: locale },
      options.quiet === true,
    );
  try {
    await viteBuild('en', staging);
    await viteBuild('de', stagingDe);
    await mergeLocaleBuild(staging, stagingDe, 'de');
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(stagingDe, { recursive: true, force: true });
  }
  if (existsSync(outDir)) await rename(outDir, previous);
  await rename(staging, outDir);
  await rm(previous, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildWeb({ viteArgs: process.argv.slice(2) }).then(
    () => undefined,
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
