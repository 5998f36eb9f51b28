// The production build refuses to ship company details that are still placeholders, and a
// SITE_URL that is unset or names an example site (prerenderSite in prerender.ts runs both checks).
import { emailAddress } from '#contracts/common.ts';
import { defaultSiteUrl } from '../src/lib/site-url.ts';

/** `TODO`, `XXX` (or longer: `HRB XXXXX`), `TBD` or anything in square brackets (`[Bank name]`). */
const placeholder = /\bTODO\b|\bX{3,}\b|\bTBD\b|\[[^\]]*\]/;

export const allowPlaceholdersEnv = 'ALLOW_PLACEHOLDER_CONTENT';

/** Top-level domains reserved by RFC 2606 / RFC 6761: nobody can own a name under them. */
const reservedTlds = new Set(['example', 'test', 'invalid', 'localhost']);
/** Second-level names reserved by RFC 2606 (with every subdomain). */
const reservedDomains = ['example.com', 'example.net', 'example.org'];

/** Whether `host` is a reserved example/test name (`platform.example`, `mail.example.com`, `localhost`). */
export function isReservedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const tld = name.slice(name.lastIndexOf('.') + 1);
  return (
    reservedTlds.has(tld) || reservedDomains.some((domain) => name === domain || name.endsWith(`.${domain}`))
  );
}

/**
 * Host names in a string: the domain of an email address, the host of a URL, a bare domain. Not
 * the local part of an email address (`john.test@acme.de` names `acme.de` only).
 */
const hostName =
  /(?<![\w.-])(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]|localhost)\.?(?![\w@-]|\.\w)/gi;

/** The reserved host names `value` mentions (emails, URLs, bare domains). */
export function reservedHosts(value: string): string[] {
  return [...value.matchAll(hostName)].map((match) => match[0].replace(/\.$/, '')).filter(isReservedHost);
}

/**
 * Whether `value` is an IBAN with valid check digits (ISO 13616: 15-34 characters, the number
 * with the first four characters moved to the end is 1 mod 97, check digits 02-98). Spaces are
 * ignored.
 */
export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const checkDigits = Number(iban.slice(2, 4));
  if (checkDigits < 2 || checkDigits > 98) return false;
  let remainder = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** A value written like an IBAN (country code, two digits, 11-30 letters/digits, optional spaces). */
const ibanLike = /^[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}$/;

/** Why one string value is a placeholder, or undefined; `key` is the name it is stored under. */
function problemWith(key: string, value: string): string | undefined {
  if (placeholder.test(value)) return '';
  if (value.trim() === '') return ' (empty)';
  const reserved = reservedHosts(value);
  if (reserved.length > 0) {
    return ` (reserved example domain ${reserved.join(', ')}, RFC 2606/6761: nothing there reaches the company)`;
  }
  if (/iban/i.test(key) || ibanLike.test(value.trim())) {
    if (!isValidIban(value)) return ' (not a valid IBAN: its check digits fail the mod-97 test)';
  }
  if (/e-?mail/i.test(key) && !emailAddress.safeParse(value).success) return ' (not an email address)';
  return undefined;
}

/**
 * Every `key.path: "value"` of `value` that is still a placeholder: a `TODO`/`XXX`/`TBD`/`[...]`
 * marker, an empty string, an email address or URL on a reserved example domain (`.example`,
 * `example.com`, `.test`, `.invalid`, `localhost`), an IBAN (a value under a key named `iban`, or
 * any value written like one) whose checksum fails, or a value under an `email` key that is not
 * an email address. Anything but a marker is followed by the reason in parentheses.
 */
export function findPlaceholders(value: unknown, at = ''): string[] {
  if (typeof value === 'string') {
    const key = at.slice(at.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
    const problem = problemWith(key, value);
    return problem === undefined ? [] : [`${at}: ${JSON.stringify(value)}${problem}`];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => findPlaceholders(item, `${at}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => findPlaceholders(item, at ? `${at}.${key}` : key));
  }
  return [];
}

/**
 * Local and test builds may carry placeholders: `ALLOW_PLACEHOLDER_CONTENT=1`, or a build started
 * by Vitest (the stack tests build the site from a child of the Vitest process).
 */
export function placeholdersAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[allowPlaceholdersEnv] === '1' || env.VITEST === 'true';
}

export class PlaceholderContentError extends Error {
  override readonly name = 'PlaceholderContentError';
  constructor(file: string, found: readonly string[]) {
    super(
      `${file} still holds placeholder values, so this build must not ship:\n` +
        found.map((line) => `  - ${line}`).join('\n') +
        `\nFill them in, or set ${allowPlaceholdersEnv}=1 for a local or test build.`,
    );
  }
}

export const siteUrlEnv = 'SITE_URL';

/**
 * What is wrong with the site URL a build bakes in (SITE_URL as web/src/lib/site-url.ts resolved
 * it: trailing slashes dropped, the default when unset). `placeholder` problems (unset, a reserved
 * example host, plain http) may pass in a local or test build; the others (not an http(s) origin)
 * never do.
 */
export function checkSiteUrl(siteUrl: string): { problem: string; placeholder: boolean } | undefined {
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    return { problem: `is not a URL (${JSON.stringify(siteUrl)})`, placeholder: false };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `is not an https URL (${JSON.stringify(siteUrl)})`, placeholder: false };
  }
  if (url.origin !== siteUrl) {
    return {
      problem:
        `must be an origin, with no path, query, fragment or credentials ` +
        `(${JSON.stringify(siteUrl)}; its origin is ${url.origin})`,
      placeholder: false,
    };
  }
  if (siteUrl === defaultSiteUrl) {
    return { problem: `is not set (pages would name the default ${defaultSiteUrl})`, placeholder: true };
  }
  if (isReservedHost(url.hostname)) {
    return { problem: `names a reserved example host (${siteUrl}, RFC 2606/6761)`, placeholder: true };
  }
  if (url.protocol !== 'https:') return { problem: `is not https (${siteUrl})`, placeholder: true };
  return undefined;
}

export class SiteUrlError extends Error {
  override readonly name = 'SiteUrlError';
  constructor(problem: { problem: string; placeholder: boolean }) {
    super(
      `${siteUrlEnv} ${problem.problem}, so this build must not ship: canonical URLs, og:url and ` +
        `the sitemap would name the wrong site.\nSet ${siteUrlEnv}=https://your.domain` +
        (problem.placeholder
          ? `, or ${allowPlaceholdersEnv}=1 for a local or test build.`
          : ' (an https origin: scheme and host, no path).'),
    );
  }
}
