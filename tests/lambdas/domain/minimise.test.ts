import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimiseIp, minimiseUserAgent, unknownIp } from '#lambdas/domain/minimise.ts';

describe('minimiseIp', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['  198.51.100.255 ', '198.51.100.0'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:DB8:85A3::1', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8::'],
    ['fe80::1%eth0', 'fe80::'],
    ['::1', '::'],
    ['[2001:db8:1:2::5]', '2001:db8:1::'],
    ['::ffff:203.0.113.9', '203.0.113.0'],
    ['64:ff9b:1::192.0.2.33', '64:ff9b:1::'],
  ])('keeps the network of %s: %s', (raw, minimised) => {
    expect(minimiseIp(raw)).toBe(minimised);
  });

  it.each(['', 'localhost', '256.1.1.1', '1.2.3', '01.2.3.4', '1:2:3:4:5:6:7:8:9', '1::2::3', 'gggg::1'])(
    'stores %j as unknown rather than as it came',
    (raw) => {
      expect(minimiseIp(raw)).toBe(unknownIp);
    },
  );

  it('zeroes the last octet of every IPv4 address and nothing else', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const [a, b, c] = ip.split('.');
        expect(minimiseIp(ip)).toBe(`${a}.${b}.${c}.0`);
      }),
    );
  });

  it('keeps exactly the first 48 bits of every IPv6 address', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((g) => g.toString(16)).join(':');
        const minimised = minimiseIp(full);
        // Expanding the result gives the first three groups followed by zeros.
        const [head = '', tail = ''] = minimised.split('::');
        const left = head === '' ? [] : head.split(':');
        const right = tail === '' ? [] : tail.split(':');
        const expanded = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right].map((g) =>
          Number.parseInt(g, 16),
        );
        expect(expanded).toEqual([groups[0], groups[1], groups[2], 0, 0, 0, 0, 0]);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), (ip) => {
        expect(minimiseIp(minimiseIp(ip))).toBe(minimiseIp(ip));
      }),
    );
  });
});

describe('minimiseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36',
      'Chrome 120 (Windows)',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
      'Edge 120 (Windows)',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox 121 (Linux)'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
      'Safari 17 (macOS)',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
      'Safari 17 (iOS)',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
      'Samsung Internet 23 (Android)',
    ],
    ['curl/8.5.0', 'curl 8 (Other)'],
    ['', 'Other (Other)'],
    ['my-own-bot (contact: someone@example.com)', 'Other (Other)'],
  ])('reduces %s to %s', (raw, minimised) => {
    expect(minimiseUserAgent(raw)).toBe(minimised);
  });

  it('keeps nothing of any string but a browser family, a major version and an OS family', () => {
    const vocabulary =
      /^(Edge|Opera|Samsung Internet|Firefox|Chrome|Safari|curl|Node\.js|Other)( \d{1,6})? \((Windows|iOS|Android|ChromeOS|macOS|Linux|Other)\)$/;
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        expect(minimiseUserAgent(raw)).toMatch(vocabulary);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom('Firefox/121.0 (Windows)', 'Chrome/99 Android', 'OPR/100')),
        (raw) => {
          expect(minimiseUserAgent(minimiseUserAgent(raw))).toBe(minimiseUserAgent(raw));
        },
      ),
    );
  });
});
