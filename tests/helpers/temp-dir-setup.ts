import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The unit project's temporary files go into one folder, removed when the run ends. Each CDK synth
// leaves its cloud assembly (`cdk.out*`, about 23 MB) in the temp folder and never removes it: the
// infra tests left some 60 a run, which filled this machine's disk over many runs. Workers start
// after this setup and inherit TMPDIR, which os.tmpdir() reads.
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitest-unit-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
