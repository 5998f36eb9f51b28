// The revision of the cookie policy and banner text. Change it whenever either changes: every
// visitor whose stored choice names another revision is asked again, and the consent log
// (POST /api/cookie-consents) records which text each choice answered.
export const cookiePolicyRevision = '2025-06-08';

/**
 * How long a stored choice is relied on before the banner asks again. The cookie policy text
 * quotes policyFacts.cookieConsentMonths (web/src/content/pages/legal/facts.ts), which re-exports
 * this value; it lives here because facts.ts imports a contract (zod), which would put zod into
 * every page's initial JS through the banner. So facts.ts imports this module, never the reverse.
 */
export const cookieConsentMonths = 13;
