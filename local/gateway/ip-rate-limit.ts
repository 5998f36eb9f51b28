// WAF's rate-based rule, locally: requests per client IP over a sliding window. WAF counts every
// matching request, the blocked ones too, so a client that keeps sending stays blocked.

export interface IpRateLimit {
  limit: number;
  windowSeconds: number;
}

export function createIpRateLimiter(rule: IpRateLimit, now: () => number = Date.now) {
  const seen = new Map<string, number[]>();
  return {
    /** Records one request from `ip`; false when this request is over the limit. */
    allow(ip: string): boolean {
      const cutoff = now() - rule.windowSeconds * 1000;
      const recent = (seen.get(ip) ?? []).filter((at) => at > cutoff);
      recent.push(now());
      seen.set(ip, recent);
      return recent.length <= rule.limit;
    },
  };
}
