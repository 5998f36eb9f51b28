// The `kyc-decisions` channel namespace's event handlers, as AppSync runs them (APPSYNC_JS, bundled
// by `channelHandlerCode`). Subscribing is authorized twice: AppSync checks the Auth0 access token
// itself (the namespace's OIDC auth mode: issuer, signature, expiry), then this handler compares the
// token's `sub` with the channel, so a user can read their own decisions only (ADR 0060).
import { util } from '@aws-appsync/utils';
import { mayReadKycChannel } from '#contracts/kyc-channel.ts';

interface SubscribeContext {
  identity?: { sub?: unknown } | null;
  info: { channel: { path: string } };
}

export function onSubscribe(ctx: SubscribeContext): void {
  if (!mayReadKycChannel(ctx.identity?.sub, ctx.info.channel.path)) util.unauthorized();
}
