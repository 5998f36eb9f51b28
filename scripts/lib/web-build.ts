import { buildWeb } from '../../web/scripts/build.ts';

/**
 * The production web build into web/dist, placeholders allowed (a local build, never shipped): what
 * `npm run bench` and `npm run test:load` serve. Built as `npm run build` builds it (staged, moved
 * into place only on success), on the Node that runs the script.
 */
export async function buildWebForLocalRuns(): Promise<void> {
  console.log('building the web (production build, placeholders allowed locally)...');
  await buildWeb({
    env: { ...process.env, NODE_ENV: 'production', ALLOW_PLACEHOLDER_CONTENT: '1' },
    viteArgs: ['--logLevel', 'error'],
  });
}
