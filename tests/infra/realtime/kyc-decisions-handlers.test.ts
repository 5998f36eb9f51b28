import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kycChannelPath, mayReadKycChannel } from '#contracts/kyc-channel.ts';
import { kycDecisionsHandlerCode } from '#infra/realtime/handler-code.ts';
import { loadKycDecisionsHandlers } from '#local/appsync-events/handlers.ts';

// The kyc-decisions namespace's onSubscribe rule, run as AppSync runs it: the bundle infra deploys,
// executed in Node with a stand-in for `@aws-appsync/utils`. Tried the way an attacker would.

const subscribe = async (sub: unknown, path: string) => {
  const handlers = await loadKycDecisionsHandlers();
  try {
    handlers.onSubscribe?.({
      identity: { sub, issuer: 'https://tenant/', claims: {} },
      info: {
        channel: { path, segments: path.split('/').filter(Boolean) },
        channelNamespace: { name: 'kyc-decisions' },
        operation: 'SUBSCRIBE',
      },
    } as never);
    return 'allowed';
  } catch (error) {
    if ((error as { appsyncUnauthorized?: boolean }).appsyncUnauthorized) return 'refused';
    throw error;
  }
};

describe('the kyc-decisions onSubscribe handler', () => {
  const alice = 'auth0|64f1c2aa0b1c2d3e4f5a6b7c';
  const own = kycChannelPath(alice) ?? '';

  it('lets a user subscribe to their own channel, with or without the leading slash', async () => {
    expect(await subscribe(alice, own)).toBe('allowed');
    expect(await subscribe(alice, own.slice(1))).toBe('allowed');
  });

  it("refuses another user's channel, wildcards, longer paths and a missing identity", async () => {
    const bob = kycChannelPath('auth0|64f1c2aa0b1c2d3e4f5a6b7d') ?? '';
    expect(await subscribe(alice, bob)).toBe('refused');
    expect(await subscribe(alice, '/kyc-decisions/*')).toBe('refused');
    expect(await subscribe(alice, `${own}/*`)).toBe('refused');
    expect(await subscribe(alice, `${own}/x`)).toBe('refused');
    expect(await subscribe(alice, own.toLowerCase())).toBe('refused');
    expect(await subscribe(undefined, own)).toBe('refused');
    expect(await subscribe('', '/kyc-decisions/')).toBe('refused');
  });

  it('bundles to one module that imports only @aws-appsync/utils and stays inside the APPSYNC_JS subset', () => {
    const code = kycDecisionsHandlerCode();
    expect([...code.matchAll(/^import .* from "(.+)";$/gm)].map((m) => m[1])).toEqual(['@aws-appsync/utils']);
    expect(code).toMatch(/export \{\s*onSubscribe\s*\}/);
    // Statements and operators the runtime refuses (docs: "Supported runtime features").
    for (const forbidden of [
      /\bwhile\s*\(/,
      /\btry\s*\{/,
      /\bthrow\b/,
      /\bcontinue\b/,
      /\+\+|--/,
      /for\s*\([^)]*;/,
    ]) {
      expect(code).not.toMatch(forbidden);
    }
    // Small: AppSync takes at most 32 KB of handler code.
    expect(code.length).toBeLessThan(32 * 1024);
  });
});

describe('the channel name', () => {
  it('is one-to-one and holds only what AppSync allows in a channel (letters and digits, at most 50 per segment, 5 segments)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const pa = kycChannelPath(a);
        const pb = kycChannelPath(b);
        if (pa !== null) {
          const segments = pa.split('/').slice(1);
          expect(segments[0]).toBe('kyc-decisions');
          expect(segments.length).toBeLessThanOrEqual(5);
          for (const segment of segments.slice(1)) expect(segment).toMatch(/^[A-Za-z0-9]{1,50}$/);
          expect(mayReadKycChannel(a, pa)).toBe(true);
        }
        if (a !== b && pa !== null) expect(pa).not.toBe(pb);
      }),
    );
  });

  it('carries the Auth0 user ids we see, and refuses what it cannot carry', () => {
    for (const id of ['auth0|abc', 'google-oauth2|1234567890', 'samlp|acme|dana.example@acme.example']) {
      expect(kycChannelPath(id)).not.toBeNull();
    }
    expect(kycChannelPath('auth0|abc')).toBe('/kyc-decisions/auth0Q7Cabc');
    expect(kycChannelPath('')).toBeNull();
    expect(kycChannelPath('auth0|ä')).toBeNull();
    expect(kycChannelPath(`auth0|${'a'.repeat(200)}`)).toBeNull();
  });
});
