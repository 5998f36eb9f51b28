import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { StackInfo } from '#local/stack.ts';
import { testPorts } from './test-ports.ts';

// Global setup of the `stack` project: builds the web, then runs `local/start.ts --web=dist`
// exactly as `npm start -- --web=dist` does (as a child process, on the test ports, with its
// state in a temporary directory) and hands `stack.json` to the tests.

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

let child: ChildProcess | undefined;
let stateDir: string | undefined;

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    process_.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    process_.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    process_.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

export default async function setup(project: TestProject) {
  if (!process.env.STACK_SKIP_BUILD) {
    await run(process.execPath, [
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'web/vite.config.ts',
      '--logLevel',
      'warn',
    ]);
  }
  stateDir = await mkdtemp(join(tmpdir(), 'platform-stack-'));
  const env = {
    ...process.env,
    LOCAL_STATE_DIR: stateDir,
    WEB_PORT: String(testPorts.web),
    API_PORT: String(testPorts.api),
    IDP_PORT: String(testPorts.idp),
    PERSONA_PORT: String(testPorts.persona),
    SES_PORT: String(testPorts.ses),
    DYNAMODB_PORT: String(testPorts.dynamodb),
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  };
  child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts', '--web=dist', '--in-memory'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (process.env.STACK_VERBOSE) process.stdout.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stackFile = join(stateDir, 'stack.json');
  const deadline = Date.now() + 90_000;
  while (!existsSync(stackFile)) {
    if (child.exitCode !== null)
      throw new Error(`The local stack exited early (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`The local stack did not come up in 90 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const info = JSON.parse(await readFile(stackFile, 'utf8')) as StackInfo;
  project.provide('stack', info);

  return async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  };
}
