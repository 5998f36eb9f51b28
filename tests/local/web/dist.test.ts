import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebConfig } from '#contracts/web-config.ts';
import { siteRoutes } from '#infra/site/path-mapping.ts';
import { chooseEncoding, localSiteHeaders, type RunningWeb, startWeb } from '#local/web/index.ts';
import { freePort } from '#tests/helpers/free-port.ts';
import { bucketKeys, sitePathCases } from '#tests/helpers/site-paths.ts';

const config: WebConfig = {
  stage: 'test',
  auth0: {
    domain: 'http://localhost:4010',
    clientId: 'client',
    audience: 'https://api.test',
    claimsNamespace: 'https://platform.test/',
  },
  persona: { environmentId: 'env_test', customHost: 'localhost:4020' },
};
const themeHash = "'sha256-abc123='";
const longPage = `<!doctype html><title>long</title>${'<p>Every clause of a long legal text.</p>'.repeat(400)}`;
const longScript = `export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `word${i}`))};`;

let tmp: string;
let web: RunningWeb;
let api: Server;
const apiRequests: { method: string; url: string; contentType: string | undefined; body: string }[] = [];
const apiHeaders: IncomingHttpHeaders[] = [];
const originSecret = 'local-origin-secret-for-the-dist-test';
/** What each file of the test build holds: every page of the registry, the 404 page, the app shell. */
const contents = new Map<string, string>();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'web-dist-'));
  const dist = path.join(tmp, 'dist');
  for (const key of bucketKeys(siteRoutes)) contents.set(key, `<!doctype html><title>${key}</title>`);
  contents.set('/pricing/index.html', longPage);
  contents.set('/assets/chunk-big.js', longScript);
  contents.set('/assets/app-x.js', 'console.log("app")');
  for (const [key, content] of contents) {
    await mkdir(path.dirname(path.join(dist, key)), { recursive: true });
    await writeFile(path.join(dist, key), content);
  }
  await writeFile(path.join(dist, 'assets', 'logo-abc.png'), Buffer.alloc(4000, 7));
  await writeFile(path.join(dist, 'csp-hashes.json'), JSON.stringify({ 'script-src': [themeHash] }));
  await writeFile(path.join(tmp, 'secret.txt'), 'outside the site');

  api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      apiRequests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'],
        body,
      });
      apiHeaders.push(req.headers);
      res.writeHead(404, { 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
    });
  });
  const apiPort = await freePort();
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));

  web = await startWeb({
    mode: 'dist',
    port: await freePort(),
    apiUrl: `http://127.0.0.1:${apiPort}`,
    originSecret,
    config,
    distDir: dist,
  });
});

afterAll(async () => {
  await web?.close();
  await new Promise((resolve) => api?.close(resolve));
  await rm(tmp, { recursive: true, force: true });
});

/** A GET (or HEAD) with the path sent byte for byte (fetch would normalise `..` away). */
function rawGet(
  rawPath: string,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: rawPath, method }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The raw bytes and headers of a GET or HEAD, with the Accept-Encoding given (fetch would decode). */
function rawResponse(
  rawPath: string,
  acceptEncoding?: string,
  method = 'GET',
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { hostname, port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };
    const req = request({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compression, as CloudFront does it', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('answers Accept-Encoding %s with %s, and the body decodes to the file', async (accept, expected) => {
    for (const [rawPath, content] of [
      ['/pricing/', longPage],
      ['/assets/chunk-big.js', longScript],
    ] as const) {
      const { headers, body } = await rawResponse(rawPath, accept);
      expect(headers['content-encoding']).toBe(expected);
      expect(headers.vary).toBe('Accept-Encoding');
      expect(Number(headers['content-length'])).toBe(body.length);
      const decoded =
        expected === 'br' ? brotliDecompressSync(body) : expected === 'gzip' ? gunzipSync(body) : body;
      expect(decoded.toString('utf8')).toBe(content);
      if (expected) expect(body.length).toBeLessThan(content.length / 3);
    }
  });

  it('leaves bodies under 1,000 bytes and non-text types alone', async () => {
    for (const rawPath of ['/contact/', '/assets/app-x.js', '/assets/logo-abc.png']) {
      const { headers } = await rawResponse(rawPath, 'br, gzip');
      expect(headers['content-encoding']).toBeUndefined();
    }
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const get = await rawResponse('/pricing/', 'gzip');
    const head = await rawResponse('/pricing/', 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.body.length).toBe(0);
  });

  it('picks the encoding by the rules CloudFront follows', () => {
    expect(chooseEncoding('gzip, br')).toBe('br');
    expect(chooseEncoding('GZIP')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.0, br;q=0')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('local web server in dist mode: every path answers what CloudFront answers', () => {
  it.each(sitePathCases(siteRoutes))(
    'answers $path with $status',
    async ({ path: rawPath, status, file, location }) => {
      const response = await rawGet(rawPath);
      expect(response.status).toBe(status);
      if (location !== undefined) expect(response.headers.location).toBe(location);
      if (file) {
        expect(response.body).toBe(contents.get(file));
        if (file.endsWith('.html')) {
          expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(response.headers['cache-control']).toBe('no-cache');
        }
      }
      // A missing file is a plain 404, never HTML (a missing chunk must fail, not parse a page).
      if (file === null) expect(response.headers['content-type']).not.toContain('html');
    },
  );

  it('answers HEAD for an unknown path with 404 and no body', async () => {
    const response = await rawGet('/no/such/page', 'HEAD');
    expect(response.status).toBe(404);
    expect(response.body).toBe('');
    expect(Number(response.headers['content-length'])).toBe(contents.get('/404.html')?.length);
  });

  it('serves hashed assets as immutable with the right content type', async () => {
    const response = await fetch(`${web.url}/assets/app-x.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('proxies /api with method, path, query and body intact and never answers with HTML', async () => {
    const response = await fetch(`${web.url}/api/x?y=1`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 404 });
    expect(apiRequests.at(-1)).toEqual({
      method: 'PUT',
      url: '/api/x?y=1',
      contentType: 'application/json',
      body: '{"hello":"world"}',
    });
  });

  it('adds what CloudFront adds on the way to the API and drops the copies a client forged', async () => {
    await fetch(`${web.url}/api/registrations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-origin-verify': 'guessed',
        'x-viewer-ip': '203.0.113.9',
        'cloudfront-viewer-country': 'XX',
        'x-forwarded-for': '198.51.100.7',
      },
      body: '{}',
    });
    const headers = apiHeaders.at(-1) ?? {};
    expect(headers['x-origin-verify']).toBe(originSecret);
    // The real peer (this test, on loopback), as the ViewerIp function writes event.viewer.ip.
    expect(headers['x-viewer-ip']).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
    expect(headers['cloudfront-viewer-country']).toBeUndefined();
    // CloudFront appends the viewer to X-Forwarded-For; the API never trusts that header.
    expect(headers['x-forwarded-for']).toMatch(/^198\.51\.100\.7, (127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
  });

  it('serves /config.json from the options, uncached', async () => {
    const response = await fetch(`${web.url}/config.json`);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual(config);
  });

  it('sends the site headers of infra/site/security-headers.ts on pages, 404s, redirects and files', async () => {
    const expected = localSiteHeaders(config, [themeHash]);
    for (const rawPath of [
      '/',
      '/no/such/page',
      '/terms',
      '/assets/app-x.js',
      '/assets/missing.js',
      '/config.json',
    ]) {
      const { headers } = await rawGet(rawPath);
      for (const [name, value] of Object.entries(expected))
        expect(headers[name.toLowerCase()], `${rawPath} ${name}`).toBe(value);
    }
    const csp = expected['Content-Security-Policy'] ?? '';
    expect(csp).toContain(`script-src 'self' ${themeHash}`);
    expect(csp).toContain("connect-src 'self' http://localhost:4010");
    expect(csp).toContain('frame-src http://localhost:4020');
    expect(csp).not.toContain('unsafe-inline');
    // Plain http: HSTS and upgrade-insecure-requests do not apply (CloudFront sends both).
    expect((await rawGet('/')).headers['strict-transport-security']).toBeUndefined();
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/..%2f..%2fetc/passwd',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
  ])('does not serve files outside the site for %s', async (rawPath) => {
    const response = await rawGet(rawPath);
    expect(response.body).not.toContain('outside the site');
    expect(response.body).not.toContain('root:');
    expect(response.status).toBe(404);
  });
});
