// The per-user channel that carries a KYC decision to the person's open status screens (ADR 0060):
// its name and who may read it (what travels on it: kyc-decision-push.ts). The publisher
// (lambdas/), the web client, the local AppSync Events emulator and the channel namespace's
// onSubscribe handler in AWS (infra/realtime/) all use these functions: the rule is written once.
//
// AppSync runs the onSubscribe handler in its APPSYNC_JS runtime, which infra bundles from this
// file: keep the functions below inside that runtime's subset (no regular expressions, no
// `for(;;)`, `while`, `try`/`throw`, `++`/`--`; `for-of`, `split`/`join`, `slice`, `includes`).

/** The channel namespace (its name follows AppSync's pattern: letters, digits, inner dashes). */
export const kycChannelNamespace = 'kyc-decisions';

/** AppSync channel segments: 1-50 characters, letters and digits (dashes only inside, unused here). */
export const channelSegmentMaxLength = 50;
/** A channel has at most five segments: the namespace and four more. */
const maxEncodedLength = 4 * channelSegmentMaxLength;

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/**
 * The escape character, then the characters Auth0 user ids hold besides letters and digits
 * (`auth0|...`, `google-oauth2|...`, `samlp|conn|a.b@c.d`, ...), each written as `Q` and two hex
 * digits. `Q` itself is escaped first, so the encoding is one-to-one and holds letters and digits only.
 */
const escapes: readonly (readonly [string, string])[] = [
  ['Q', 'Q51'],
  ['|', 'Q7C'],
  ['-', 'Q2D'],
  ['_', 'Q5F'],
  ['.', 'Q2E'],
  ['@', 'Q40'],
  ['+', 'Q2B'],
  [':', 'Q3A'],
  ['=', 'Q3D'],
  ['~', 'Q7E'],
  ['/', 'Q2F'],
  [' ', 'Q20'],
];

/**
 * The user's channel, `/kyc-decisions/<the user id, encoded, in segments of 50>`; null for an id
 * the encoding cannot carry (another character, or longer than four segments): that user's screen
 * polls instead.
 */
export function kycChannelPath(userId: string): string | null {
  let encoded = userId;
  for (const [character, escaped] of escapes) encoded = encoded.split(character).join(escaped);
  if (encoded.length === 0 || encoded.length > maxEncodedLength) return null;
  for (const character of encoded.split('')) {
    if (!alphanumerics.includes(character)) return null;
  }
  const segments: string[] = [];
  for (const start of [0, 50, 100, 150]) {
    if (start < encoded.length) segments.push(encoded.slice(start, start + channelSegmentMaxLength));
  }
  return `/${kycChannelNamespace}/${segments.join('/')}`;
}

/**
 * The subscribe rule: a caller (the access token's `sub`) may read their own channel only; a
 * wildcard, another user's channel or a longer path is refused. Publishers name the channel
 * with or without the leading slash, so both forms of the caller's own path match.
 */
export function mayReadKycChannel(sub: unknown, channelPath: unknown): boolean {
  if (typeof sub !== 'string' || typeof channelPath !== 'string') return false;
  const own = kycChannelPath(sub);
  if (own === null) return false;
  return channelPath === own || channelPath === own.slice(1);
}
