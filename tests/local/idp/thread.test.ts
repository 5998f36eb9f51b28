import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningIdp } from '#local/idp/index.ts';
import { startIdpThread } from '#local/idp/thread.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { managementToken, passwordGrant, TEST_USER, testIdpOptions } from '#tests/helpers/idp.ts';

// The local stack runs the identity provider on a worker thread (ADR 0055): it must behave as the
// in-process one does towards its callers, and start and stop as cleanly.

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });

describe('the identity provider on its own thread', () => {
  let idp: RunningIdp | undefined;
  afterEach(async () => {
    await idp?.close();
    idp = undefined;
  });

  it('signs a seeded user in and issues Management API tokens, then frees its port on close', async () => {
    const port = await freePort();
    idp = await startIdpThread(testIdpOptions({ port }));
    expect(idp.issuer).toBe(`http://localhost:${port}/`);

    const signIn = await passwordGrant(idp.url, TEST_USER.email, TEST_USER.password);
    expect(signIn.status).toBe(200);
    expect(signIn.body.access_token).toEqual(expect.any(String));
    const wrongPassword = await passwordGrant(idp.url, TEST_USER.email, 'not-the-password');
    expect(wrongPassword.status).toBe(403);
    await expect(managementToken(idp.url)).resolves.toEqual(expect.any(String));

    await idp.close();
    idp = undefined;
    expect(await listening(port)).toBe(false);
  });

  it('closes at once when its thread has already ended (a second close does not hang)', async () => {
    const running = await startIdpThread(testIdpOptions({ port: await freePort() }));
    await running.close();
    await expect(running.close()).resolves.toBeUndefined();
  });

  it('fails to start with the cause when its port is taken, as the in-process one throws', async () => {
    const port = await freePort();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      await expect(startIdpThread(testIdpOptions({ port }))).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });
});
