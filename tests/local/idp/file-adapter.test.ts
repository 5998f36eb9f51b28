import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileAdapter } from '#local/idp/file-adapter.ts';

// The identity provider's storage between restarts (ADR 0039): what a second process reads back
// from the files the first one wrote.

const reopened = (dir: string) => new (fileAdapter(dir).Adapter)('RefreshToken');

describe('the identity provider file adapter', () => {
  it('reads back after a restart what was stored, minus what expired, was destroyed or revoked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idp-adapter-'));
    const storage = fileAdapter(dir);
    const tokens = new storage.Adapter('RefreshToken');
    await Promise.all([
      tokens.upsert('kept', { grantId: 'g1', uid: 'u1' }, 3600),
      tokens.upsert('expiring', { grantId: 'g1' }, 1),
      tokens.upsert('destroyed', { grantId: 'g1' }, 3600),
      tokens.upsert('revoked', { grantId: 'g2' }, 3600),
    ]);
    await tokens.consume('kept');
    await tokens.destroy('destroyed');
    await tokens.revokeByGrantId('g2');
    await storage.flushed();
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const again = reopened(dir);
    expect(await again.find('kept')).toMatchObject({ grantId: 'g1', consumed: expect.any(Number) });
    expect(await again.findByUid('u1')).toMatchObject({ grantId: 'g1' });
    expect(await again.find('expiring')).toBeUndefined();
    expect(await again.find('destroyed')).toBeUndefined();
    expect(await again.find('revoked')).toBeUndefined();
    // Written atomically: no temporary file is left beside the model's file.
    expect(readdirSync(dir)).toEqual(['RefreshToken.json']);
  });
});
