// One normalisation for every record of the submissions table, so the byEmail index finds them all.
export { normaliseEmail } from '../waitlist.ts';

/**
 * Keeps the network, drops the host: IPv4 to its /24, IPv6 to its /48. Enough to spot abuse from a
 * network, not enough to single out a person. Anything unparseable becomes `unknown`.
 */
export function minimiseIp(ip: string): string {
  const value = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  const v4 = mapped?.[1] ?? value;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  if (octets) {
    const parts = octets.slice(1, 5).map(Number);
    if (parts.every((part) => part <= 255)) return `${parts[0]}.${parts[1]}.${parts[2]}.0/24`;
    return 'unknown';
  }
  if (value.includes(':') && /^[0-9a-f:]+$/i.test(value)) {
    const [head = '', tail] = value.toLowerCase().split('::');
    if (value.split('::').length > 2) return 'unknown';
    const left = head === '' ? [] : head.split(':');
    const right = tail === undefined || tail === '' ? [] : tail.split(':');
    const missing = 8 - left.length - right.length;
    if (tail === undefined ? left.length !== 8 : missing < 1) return 'unknown';
    const groups = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
    if (groups.length !== 8 || groups.some((group) => group.length === 0 || group.length > 4))
      return 'unknown';
    return `${groups
      .slice(0, 3)
      .map((group) => Number.parseInt(group, 16).toString(16))
      .join(':')}::/48`;
  }
  return 'unknown';
}
