import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalPorts, portEnvNames } from './ports.ts';
import type { StackInfo } from './stack.ts';

// Runs `local/start.ts` exactly as `npm start` does, as a child process with its state in a
// temporary directory: the stack tests and the benchmarks use it.

/**
 * Node's flags for the stack process, as `npm start` passes them too (package.json). The gateway,
 * the handlers, the bus, the identity provider and the web servers share one heap: with V8's
 * default young generation it was collected every few hundred requests, and a larger one cut the
 * CPU a request costs by a tenth to a fifth (ADR 0053).
 */
export const stackNodeFlags = ['--max-semi-space-size=64'];

export interface StackProcess {
  info: StackInfo;
  child: ChildProcess;
  stateDir: string;
  output(): string;
  /** Ctrl-C, as a developer would; resolves with the exit code once the process has exited. */
  stop(): Promise<number | null>;
}

export async function spawnStack(options: {
  ports: LocalPorts;
  web: 'dev' | 'dist';
  env?: NodeJS.ProcessEnv;
  echo?: boolean;
  timeoutMs?: number;
}): Promise<StackProcess> {
  const stateDir = await mkdtemp(join(tmpdir(), 'platform-stack-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, LOCAL_STATE_DIR: stateDir };
  for (const [key, name] of Object.entries(portEnvNames))
    env[name] = String(options.ports[key as keyof LocalPorts]);
  const child = spawn(
    process.execPath,
    [...stackNodeFlags, '--import', 'tsx', 'local/start.ts', `--web=${options.web}`, '--in-memory'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.echo) process.stdout.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      timer.unref();
      await exited;
      clearTimeout(timer);
    }
    await rm(stateDir, { recursive: true, force: true });
    return child.exitCode;
  };

  const stackFile = join(stateDir, 'stack.json');
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (!existsSync(stackFile)) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The local stack exited early (${child.exitCode}):\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The local stack did not come up in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const info = JSON.parse(await readFile(stackFile, 'utf8')) as StackInfo;
  return { info, child, stateDir, output: () => output, stop };
}
