import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kycDecisionsHandlerCode } from '#infra/realtime/handler-code.ts';
import type { ChannelHandlers } from './index.ts';

const utilsStandIn = fileURLToPath(new URL('./appsync-utils.ts', import.meta.url));

/**
 * The `kyc-decisions` namespace's handlers as AppSync runs them: the same bundle infra deploys,
 * with the local stand-in for `@aws-appsync/utils`, loaded as an ES module.
 */
export async function loadKycDecisionsHandlers(): Promise<ChannelHandlers> {
  const dir = await mkdtemp(join(tmpdir(), 'appsync-handlers-'));
  try {
    const file = join(dir, 'kyc-decisions.mjs');
    await writeFile(file, kycDecisionsHandlerCode({ utilsModule: utilsStandIn }));
    return (await import(pathToFileURL(file).href)) as ChannelHandlers;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
