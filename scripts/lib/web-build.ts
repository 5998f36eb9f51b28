import { execFileSync } from 'node:child_process';

/**
 * The production web build into web/dist, placeholders allowed (a local build, never shipped): what
 * `npm run bench` and `npm run test:load` serve. Runs on the Node that runs the script.
 */
export function buildWebForLocalRuns(): void {
  console.log('building the web (production build, placeholders allowed locally)...');
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
    {
      env: { ...process.env, NODE_ENV: 'production', ALLOW_PLACEHOLDER_CONTENT: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
