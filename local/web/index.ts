// The web part of the local stack: the Vite dev server (`dev`), or a static server for the built
// site that maps paths, sets headers and compresses the way CloudFront does (`dist`,
// docs/design.md section 10).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { WebConfig } from '#contracts/web-config.ts';
import { siteRoutes } from '#infra/site/path-mapping.ts';
import { headerFields, siteHeaderInputs, siteHeaders } from '#infra/site/security-headers.ts';
import { listen } from '#local/http.ts';
import { cspHashesFile, parseCspHashes } from '../../web/build-contract.ts';
import { type SiteEdge, siteEdge } from './edge.ts';
import { edgeHeaders, isEdgeHeader, originRequestHeaders } from './origin-request.ts';

export interface WebOptions {
  port: number;
  mode: 'dev' | 'dist';
  /** Origin of the API gateway; `/api/*` is proxied there with path, method, headers and body. */
  apiUrl: string;
  /** The origin secret CloudFront adds to `/api/*` requests (local/web/origin-request.ts). */
  originSecret: string;
  /** Served as `/config.json`. */
  config: WebConfig;
  /** The built site; defaults to web/dist. */
  distDir?: string;
}

export interface RunningWeb {
  url: string;
  close(): Promise<void>;
}

const host = '127.0.0.1';
export const defaultDistDir = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export async function startWeb(options: WebOptions): Promise<RunningWeb> {
  return options.mode === 'dev' ? startDev(options) : startDist(options);
}

function sendConfig(res: ServerResponse, config: WebConfig, extra: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...extra,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-cache',
  });
  res.end(JSON.stringify(config));
}

/** A browser asking for a page (not a module, asset or HMR request of the dev server). */
function isPageNavigation(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if ((method !== 'GET' && method !== 'HEAD') || path.startsWith('/@') || path.startsWith('/node_modules/'))
    return false;
  const accept = req.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  // curl, fetch and link checkers ask for anything (or say nothing); Vite answers them the app's
  // HTML too, so a path without a file extension is a page to them and gets the edge's status.
  // Module and asset requests (`/src/main.tsx`, `/assets/x.css`) always carry an extension.
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  return (accept === '' || accept.includes('*/*')) && !lastSegment.includes('.');
}

/** Vite's HTML answer always sets 200: make this response's status 404 whatever the later middleware sets. */
function answerNotFound(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent && res.statusCode === 200) res.statusCode = 404;
    return end(...args);
  }) as ServerResponse['end'];
}

async function startDev(options: WebOptions): Promise<RunningWeb> {
  const edge = siteEdge(siteRoutes);
  const { createServer: createViteServer } = await import('vite');
  const { webViteConfig } = await import('../../web/vite.config.ts');
  const base = webViteConfig({
    apiProxyTarget: options.apiUrl,
    apiProxyRequest: (proxyRequest, req) => {
      for (const name of Object.keys(req.headers)) if (isEdgeHeader(name)) proxyRequest.removeHeader(name);
      for (const [name, value] of Object.entries(edgeHeaders(req, options.originSecret)))
        proxyRequest.setHeader(name, value);
    },
  });
  const server = await createViteServer({
    ...base,
    configFile: false,
    // The caller prints the URLs; Vite still reports warnings and errors.
    logLevel: 'warn',
    plugins: [
      ...(base.plugins ?? []),
      {
        name: 'local-config-json',
        configureServer(vite) {
          vite.middlewares.use((req, res, next) => {
            const rawPath = req.url?.split('?')[0] ?? '/';
            if (rawPath === '/config.json') return sendConfig(res, options.config);
            // A page navigation gets the edge's answer, as in AWS: the old short URLs redirect and an
            // unknown path is a 404 (Vite still sends the app's HTML, which renders the 404 page).
            // Module, asset and HMR requests do not ask for HTML and pass through untouched.
            if (!isPageNavigation(req)) return next();
            const method = req.method ?? 'GET';
            const decision = edge.viewerRequest(method, rawPath);
            if (decision.kind === 'response') {
              res.writeHead(decision.status, { ...decision.headers, 'Cache-Control': 'no-cache' });
              return res.end();
            }
            if (edge.viewerResponse(method, rawPath, 200) === 404) answerNotFound(res);
            next();
          });
        },
      },
    ],
    server: { ...base.server, host, port: options.port, strictPort: true },
  });
  await server.listen();
  return { url: `http://${host}:${options.port}`, close: () => server.close() };
}

async function startDist(options: WebOptions): Promise<RunningWeb> {
  const root = path.resolve(options.distDir ?? defaultDistDir);
  const hashesFile = path.join(root, cspHashesFile);
  const hashes = await readFile(hashesFile, 'utf8').then(
    (text) => parseCspHashes(text, hashesFile),
    () => {
      throw new Error(`${hashesFile} is missing: build the web first (npm run build)`);
    },
  );
  // The headers CloudFront sends, from the same definition; plain http here, so no HSTS.
  const headers = localSiteHeaders(options.config, hashes);
  const edge = siteEdge(siteRoutes);
  const api = new URL(options.apiUrl);

  const server = createServer((req, res) => {
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    if (rawPath === '/api' || rawPath.startsWith('/api/')) return proxy(req, res, api, options.originSecret);
    if (rawPath === '/config.json') return sendConfig(res, options.config, headers);
    const decision = edge.viewerRequest(req.method ?? 'GET', rawPath);
    if (decision.kind === 'response') {
      res.writeHead(decision.status, { ...headers, ...decision.headers, 'Cache-Control': 'no-cache' });
      return res.end();
    }
    serveStatic(req, res, { root, headers, edge, uri: decision.uri }).catch((error: unknown) => {
      console.error('web: failed to serve', req.url, error);
      if (!res.headersSent) sendText(res, 500, 'Internal server error', headers);
      else res.destroy();
    });
  });
  await listen(server, options.port, host);
  return { url: `http://${host}:${options.port}`, close: () => close(server) };
}

/** The site's response headers for the local dist server (infra/site/security-headers.ts). */
export function localSiteHeaders(config: WebConfig, scriptHashes: readonly string[]): Record<string, string> {
  return headerFields(siteHeaders(siteHeaderInputs(config, scriptHashes, { https: false })));
}

/** HTML is revalidated on every visit; hashed assets never change; everything else revalidates. */
export function cacheControl(urlPath: string): string {
  return urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.pdf': 'application/pdf',
};

/**
 * The file the bucket holds under this URI, as S3 would find it: the exact key, nothing else (the
 * edge functions already chose the page). Null when there is none, and for URIs that must not be
 * served at all (undecodable, traversal, NUL bytes, backslashes).
 */
export async function bucketFile(root: string, uri: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  const file = inside(root, decoded);
  return file && (await isFile(file)) ? file : null;
}

function inside(root: string, urlPath: string): string | null {
  const file = path.resolve(root, `.${urlPath}`);
  return file.startsWith(root + path.sep) ? file : null;
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/**
 * What CloudFront compresses when a behaviour has `compress: true` (infra/site): text-like types,
 * objects of 1,000 to 10,000,000 bytes, Brotli when the viewer accepts it, else gzip. Serving the
 * build uncompressed would make local pages a round trip slower than deployed ones wherever the
 * HTML crosses TCP's first congestion window (~14.6 KB), which Lighthouse's simulation models.
 */
const compressibleType = /^(text\/|application\/(json|manifest\+json|xml)|image\/svg\+xml)/;
const compressibleBytes = { min: 1_000, max: 10_000_000 };
export type ContentEncoding = 'br' | 'gzip';

/** The encoding CloudFront would pick for this `Accept-Encoding`: br, then gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([coding]) => coding),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const compressors: Record<ContentEncoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 6 }),
};

/** Compressed bodies per file and encoding, for the file's current version: each is compressed once. */
const compressedCache = new Map<string, { mtimeMs: number; body: Promise<Buffer> }>();

function compressed(file: string, mtimeMs: number, encoding: ContentEncoding): Promise<Buffer> {
  const key = `${encoding}:${file}`;
  const cached = compressedCache.get(key);
  if (cached?.mtimeMs === mtimeMs) return cached.body;
  const body = readFile(file).then((data) => compressors[encoding](data));
  compressedCache.set(key, { mtimeMs, body });
  body.catch(() => {
    if (compressedCache.get(key)?.body === body) compressedCache.delete(key);
  });
  return body;
}

async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  {
    root,
    headers,
    edge,
    uri,
  }: { root: string; headers: Record<string, string>; edge: SiteEdge; uri: string },
): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    return sendText(res, 405, 'Method not allowed', { ...headers, Allow: 'GET, HEAD' });
  }
  const file = await bucketFile(root, uri);
  if (!file) return sendText(res, 404, 'Not found', headers);
  const status = edge.viewerResponse(method, (req.url ?? '/').split('?')[0] ?? '/', 200);

  const { size, mtimeMs } = await stat(file);
  const contentType = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const common = {
    ...headers,
    'Content-Type': contentType,
    'Cache-Control': contentType.startsWith('text/html') ? 'no-cache' : cacheControl(uri),
  };
  const compressible =
    compressibleType.test(contentType) && size >= compressibleBytes.min && size <= compressibleBytes.max;
  const encoding = compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
  if (encoding) {
    const body = await compressed(file, mtimeMs, encoding);
    res.writeHead(status, {
      ...common,
      'Content-Encoding': encoding,
      'Content-Length': String(body.length),
      Vary: 'Accept-Encoding',
    });
    res.end(method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(status, {
    ...common,
    'Content-Length': String(size),
    ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
  });
  if (method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-cache',
  });
  res.end(text);
}

/** Forwards `/api/*` (path, query, method, headers, body) with the edge's headers, like the CloudFront behaviour. */
function proxy(req: IncomingMessage, res: ServerResponse, api: URL, originSecret: string): void {
  const send = api.protocol === 'https:' ? httpsRequest : request;
  const upstream = send(
    {
      protocol: api.protocol,
      hostname: api.hostname,
      port: api.port,
      method: req.method,
      path: `${api.pathname.replace(/\/$/, '')}${req.url ?? '/'}`,
      headers: { ...originRequestHeaders(req, originSecret), host: api.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (res.headersSent) return res.destroy(error);
    res.writeHead(502, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: 'Bad Gateway',
        status: 502,
        detail: 'The API is not reachable',
      }),
    );
  });
  req.pipe(upstream);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
