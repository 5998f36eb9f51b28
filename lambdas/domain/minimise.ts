// Data minimisation shared by every record that keeps a network origin or a browser (the consent
// ledger, cookie-consent logs; docs/design.md section 6): enough to support a record ("from this
// network, with this browser"), not enough to single out a device. Both functions are idempotent, so a value
// minimised twice (by a caller and again by a use case) stays the same.

/** Stored when an address cannot be parsed: better an honest "unknown" than a raw string. */
export const unknownIp = 'unknown';

/** IPv4 -> its /24 (`203.0.113.77` -> `203.0.113.0`); IPv6 -> its /48 (`2001:db8:85a3::`). */
export function minimiseIp(raw: string): string {
  const address = raw.trim();
  const v4 = parseIpv4(address);
  if (v4) return `${v4[0]}.${v4[1]}.${v4[2]}.0`;
  const v6 = parseIpv6(address);
  if (!v6) return unknownIp;
  // An IPv4-mapped address (::ffff:a.b.c.d) is an IPv4 client behind a dual-stack socket.
  if (v6.slice(0, 5).every((group) => group === 0) && v6[5] === 0xffff) {
    const high = v6[6] ?? 0;
    return `${high >> 8}.${high & 0xff}.${(v6[7] ?? 0) >> 8}.0`;
  }
  return formatIpv6([v6[0] ?? 0, v6[1] ?? 0, v6[2] ?? 0, 0, 0, 0, 0, 0]);
}

function parseIpv4(address: string): [number, number, number, number] | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  const octets = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : Number.NaN));
  if (octets.some((octet) => !(octet >= 0 && octet <= 255))) return undefined;
  return octets as [number, number, number, number];
}

function parseIpv6(input: string): number[] | undefined {
  // A zone index (fe80::1%eth0) names an interface on this host, not part of the address.
  let address = input.replace(/%[^%]*$/, '').toLowerCase();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  if (!/^[0-9a-f:.]+$/.test(address) || address.split('::').length > 2) return undefined;

  const parseGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups: number[] = [];
    const pieces = part.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (piece.includes('.')) {
        // An embedded IPv4 tail is allowed only as the last piece.
        const v4 = index === pieces.length - 1 ? parseIpv4(piece) : undefined;
        if (!v4) return undefined;
        groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };

  const [head = '', tail] = address.split('::');
  const left = parseGroups(head);
  const right = tail === undefined ? [] : parseGroups(tail);
  if (!left || !right) return undefined;
  if (tail === undefined) return left.length === 8 ? left : undefined;
  const missing = 8 - left.length - right.length;
  if (missing < 1) return undefined;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** RFC 5952 text form: lowercase, no leading zeros, the longest run of zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < groups.length; ) {
    if (groups[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < groups.length && groups[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestLength < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

// --- User agent ---------------------------------------------------------------------------------

/** Order matters: many browsers also claim to be Chrome, Safari or Mozilla. */
const browsers: { family: string; pattern: RegExp }[] = [
  { family: 'Edge', pattern: /\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/ },
  { family: 'Opera', pattern: /\b(?:OPR|Opera)\/(\d+)/ },
  { family: 'Samsung Internet', pattern: /\bSamsungBrowser\/(\d+)/ },
  { family: 'Firefox', pattern: /\b(?:Firefox|FxiOS)\/(\d+)/ },
  { family: 'Chrome', pattern: /\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\/(\d+)/ },
  { family: 'Safari', pattern: /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\// },
  { family: 'curl', pattern: /^curl\/(\d+)/ },
  { family: 'Node.js', pattern: /^(?:node|undici)(?:\/(\d+))?/ },
];

const systems: { family: string; pattern: RegExp }[] = [
  { family: 'Windows', pattern: /\bWindows\b/ },
  { family: 'iOS', pattern: /\b(?:iPhone|iPad|iPod)\b/ },
  { family: 'Android', pattern: /\bAndroid\b/ },
  { family: 'ChromeOS', pattern: /\bCrOS\b/ },
  { family: 'macOS', pattern: /\bMac OS X\b|\bMacintosh\b/ },
  { family: 'Linux', pattern: /\bLinux\b/ },
];

const knownBrowser = new Set([...browsers.map((b) => b.family), 'Other']);
const knownSystem = new Set([...systems.map((s) => s.family), 'Other']);

/**
 * `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ... Chrome/120.0.6099.109 Safari/537.36` ->
 * `Chrome 120 (Windows)`: browser family, major version, OS family. Nothing else of the string
 * survives, so the result is one of a small, fixed vocabulary plus a number.
 */
export function minimiseUserAgent(raw: string): string {
  const userAgent = raw.slice(0, 1024);
  const already = /^(.+?)(?: (\d{1,6}))? \((.+)\)$/.exec(userAgent);
  if (already?.[1] && already[3] && knownBrowser.has(already[1]) && knownSystem.has(already[3])) {
    return userAgent;
  }
  const system = systems.find((s) => s.pattern.test(userAgent))?.family ?? 'Other';
  for (const browser of browsers) {
    const match = browser.pattern.exec(userAgent);
    if (!match) continue;
    const major = match[1] === undefined ? undefined : String(Number(match[1].slice(0, 6)));
    return major === undefined ? `${browser.family} (${system})` : `${browser.family} ${major} (${system})`;
  }
  return `Other (${system})`;
}
