import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { spawnStack } from '#local/stack-process.ts';
import { testPorts } from '#tests/helpers/test-ports.ts';

// `npm start`'s promises: every part up and described in stack.json; Ctrl-C leaves nothing behind.

const stack = inject('stack');

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('stack.json', () => {
  it('describes every part with the agreed shape', () => {
    expect(stack).toMatchObject({
      web: `http://localhost:${testPorts.web}`,
      api: `http://localhost:${testPorts.api}`,
      idp: {
        issuer: `http://localhost:${testPorts.idp}/`,
        audience: expect.any(String),
        claimsNamespace: expect.stringMatching(/^https:\/\/.+\/$/),
        spaClientId: expect.any(String),
        testClientId: expect.any(String),
        testClientSecret: expect.any(String),
        m2mClientId: expect.any(String),
        m2mClientSecret: expect.any(String),
        m2mClients: expect.objectContaining({
          auth0Registration: { clientId: expect.any(String), clientSecret: expect.any(String) },
          auth0ReadUsers: { clientId: expect.any(String), clientSecret: expect.any(String) },
          auth0OrganizationTeam: { clientId: expect.any(String), clientSecret: expect.any(String) },
          auth0Erasure: { clientId: expect.any(String), clientSecret: expect.any(String) },
        }),
        // The stack tests run at Auth0's Self Service quota (tests/helpers/stack-setup.ts, ADR 0061).
        managementApi: {
          plan: 'self-service',
          burst: 50,
          perSecond: 16,
          statsUrl: `http://localhost:${testPorts.idp}/__local/management-api/stats`,
        },
      },
      persona: {
        url: `http://localhost:${testPorts.persona}`,
        templateId: expect.stringMatching(/^itmpl_/),
        webhookSecret: expect.stringMatching(/^wbhsec_/),
      },
      ses: { url: `http://localhost:${testPorts.ses}` },
      dynamodb: {
        endpoint: `http://127.0.0.1:${testPorts.dynamodb}`,
        tables: {
          ConsentLedger: expect.any(String),
          KycState: expect.any(String),
          Submissions: expect.any(String),
        },
      },
    });
  });

  it('lists a seeded admin and approved commercial and defense users who can sign in with their claims', async () => {
    const kinds = stack.accounts.map(
      (a) => `${a.role}/${a.role === 'admin' ? '' : a.organizationType}/${a.kycStatus}`,
    );
    expect(kinds).toEqual(
      expect.arrayContaining(['admin//approved', 'user/commercial/approved', 'user/defense/approved']),
    );
    for (const account of stack.accounts) {
      const response = await fetch(`${stack.idp.issuer}oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: account.email,
          password: account.password,
          audience: stack.idp.audience,
          scope: 'openid profile email',
          client_id: stack.idp.testClientId,
          client_secret: stack.idp.testClientSecret,
        }),
      });
      expect(response.status, account.email).toBe(200);
      const { access_token: token } = (await response.json()) as { access_token: string };
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
      expect(claims[`${stack.idp.claimsNamespace}role`]).toBe(account.role);
      expect(claims[`${stack.idp.claimsNamespace}kyc_status`]).toBe(account.kycStatus);
      expect(claims[`${stack.idp.claimsNamespace}organization_type`]).toBe(account.organizationType);
    }
  });

  it("answers the identity provider's Management API counts at the plan it describes", async () => {
    const response = await fetch(stack.idp.managementApi.statsUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      plan: 'self-service',
      calls: expect.any(Number),
      rateLimited: expect.any(Number),
      peakPerSecond: expect.any(Number),
      byClient: expect.any(Object),
      byOperation: expect.any(Object),
    });
  });

  it('serves the mailbox viewer, the Persona emulator and the identity provider discovery', async () => {
    expect((await fetch(stack.ses.url)).status).toBe(200);
    expect((await fetch(stack.persona.url)).status).toBe(200);
    const discovery = await (await fetch(`${stack.idp.issuer}.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({
      issuer: stack.idp.issuer,
      authorization_endpoint: `${stack.idp.issuer}authorize`,
      token_endpoint: `${stack.idp.issuer}oauth/token`,
      jwks_uri: `${stack.idp.issuer}.well-known/jwks.json`,
    });
  });
});

describe('npm start', () => {
  it('stops every part on Ctrl-C and removes stack.json', async () => {
    const ports = Object.fromEntries(
      Object.entries(testPorts).map(([name, port]) => [name, port + 100]),
    ) as typeof testPorts;
    // LOCAL_AUTH0_PLAN unset (empty), as in a developer's shell: Auth0's Free plan (ADR 0061).
    const started = await spawnStack({ ports, web: 'dist', env: { LOCAL_AUTH0_PLAN: '' } });
    try {
      const stackFile = join(started.stateDir, 'stack.json');
      expect(existsSync(stackFile)).toBe(true);
      expect(started.info.api).toBe(`http://localhost:${ports.api}`);
      expect(started.info.idp.managementApi).toMatchObject({ plan: 'free', burst: 2, perSecond: 2 });
      expect(started.output()).toContain("Management API at Auth0's free plan");
      for (const label of ['dynamodb', 'email', 'identity', 'persona', 'api', 'web'])
        expect(started.output()).toContain(label);
      expect(started.output()).toContain('admin@platform.local');
      for (const port of Object.values(ports)) expect(await portOpen(port), `port ${port} up`).toBe(true);

      const removed = new Promise<boolean>((resolve) => {
        started.child.once('exit', () => resolve(!existsSync(stackFile)));
      });
      expect(await started.stop()).toBe(0);
      expect(await removed).toBe(true);
      for (const port of Object.values(ports))
        expect(await portOpen(port), `port ${port} released`).toBe(false);
    } finally {
      await started.stop();
    }
  }, 120_000);
});
