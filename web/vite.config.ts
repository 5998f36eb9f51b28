import { readFile } from 'node:fs/promises';
import type { ClientRequest, IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { germanLiterals } from '../lambdas/contracts/messages-de.ts';
import { cspHashesFile, scriptHashSource } from './build-contract.ts';
import { entryLoaderScript, headScript, inlineScripts } from './inline-scripts.ts';
import { auth0TokenWorkerPlugin } from './scripts/auth0-token-worker.ts';
import { localePlugin } from './scripts/locale.ts';
import { prerenderPlugin } from './scripts/prerender.ts';
import type { Locale } from './src/config/locale.ts';
import { publicPaths } from './src/config/paths.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

const headScriptPlaceholder = '<!-- head-script -->';
const entryScriptTag = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const faviconLink = /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml" \/>/;

/** The favicon as a data URL: one request fewer before the first paint. */
export async function faviconDataUrl(): Promise<string> {
  const svg = await readFile(path.join(webRoot, 'public', 'favicon.svg'), 'utf8');
  // Single quotes inside, so the URL sits in a double-quoted attribute; only the characters a URL
  // or the attribute cannot hold are escaped (a third of encodeURIComponent's size).
  const compact = svg
    .trim()
    .replace(/"/g, "'")
    .replace(/[%#<>\s]+/g, (chars) => (/^\s+$/.test(chars) ? ' ' : encodeURIComponent(chars)));
  return `data:image/svg+xml,${compact}`;
}

/** Injects the head script (web/inline-scripts.ts) right after <meta charset> (dev and build). */
export function headScriptPlugin(): Plugin {
  return {
    name: 'head-script',
    transformIndexHtml: {
      order: 'pre',
      // A placeholder, not a prepended tag: the script belongs right after <meta charset>, before
      // any stylesheet (a script after a stylesheet waits for it): no wrong theme ever flashes.
      handler(html) {
        if (!html.includes(headScriptPlaceholder)) {
          throw new Error(`index.html must contain ${headScriptPlaceholder}`);
        }
        return html.replace(headScriptPlaceholder, () => `<script>${headScript}</script>`);
      },
    },
  };
}

/**
 * Shapes the built page's critical path (docs/design.md section 10): Vite's
 * `<script type="module" src>` for the entry becomes the entry loader, which imports the entry after `load` and the first paint,
 * and the favicon becomes a data URL, so a prerendered page fetches nothing but its HTML and CSS
 * before it is painted. Writes the inline scripts' hashes next to index.html for the CSP.
 */
export function criticalPathPlugin(): Plugin {
  return {
    name: 'critical-path',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const entries = [...html.matchAll(entryScriptTag)];
        if (entries.length !== 1) {
          throw new Error(`index.html must have exactly one entry script, found ${entries.length}`);
        }
        if (!faviconLink.test(html)) throw new Error('index.html must link /favicon.svg as its icon');
        const favicon = await faviconDataUrl();
        return html
          .replace(
            entryScriptTag,
            (_tag, src: string) => `<script data-entry="${src}">${entryLoaderScript}</script>`,
          )
          .replace(faviconLink, () => `<link rel="icon" href="${favicon}" type="image/svg+xml" />`);
      },
    },
    generateBundle() {
      const hashes = { 'script-src': inlineScripts.map(scriptHashSource) };
      this.emitFile({
        type: 'asset',
        fileName: cspHashesFile,
        source: `${JSON.stringify(hashes, null, 2)}\n`,
      });
    },
  };
}

/** Where the build lists each chunk's source modules (the web bench checks them for SDKs). */
export const chunkModulesFile = '.vite/chunk-modules.json';

/** Records which modules each chunk holds: Vite's manifest names chunks, not their modules. */
export function chunkModulesPlugin(): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[output.fileName] = Object.keys(output.modules).map((id) =>
          id.startsWith(webRoot) ? id.slice(webRoot.length) : id,
        );
      }
      this.emitFile({ type: 'asset', fileName: chunkModulesFile, source: JSON.stringify(chunks, null, 1) });
    },
  };
}

function reactRouterBuild(file: string): string {
  return fileURLToPath(new URL(`../node_modules/react-router/dist/production/${file}`, import.meta.url));
}

export interface WebViteOptions {
  /** The language this build renders (ADR 0089); English unless said otherwise. */
  locale?: Locale;
  /** Where the dev server sends `/api/*` (the local API gateway). */
  apiProxyTarget?: string;
  /** Sets what CloudFront's `/api/*` behaviour adds on the way to the API (local/web plays the edge). */
  apiProxyRequest?: (proxyRequest: ClientRequest, req: IncomingMessage) => void;
}

/** React and React DOM: every page loads them first, in a task of their own (web/src/main.tsx). */
const frameworkModule = /node_modules\/(react|react-dom|scheduler)\//;
/**
 * What every page loads next, with the layout: React Router and the layout's smallest shared modules
 * (the session's clock the nav reads, and the lifetimes it counts with, ADR 0085). A content module
 * named here is matched in every language (`content/de/site.ts` in the German build, ADR 0089).
 */
const routerModule =
  /node_modules\/react-router\/|\/web\/src\/(config\/(paths|locale)|content\/(de\/)?(site|cookie-policy-revision)|lib\/(storage|hydrated|site-url|required-context|session-clock)|components\/seo)\.tsx?$|\/lambdas\/contracts\/session-lifetimes\.ts$/;

/**
 * What only the signed-in app runs, around its screens: the app shell, the session and journey
 * rules, the contracts only they read, and the identity verification's API calls and submission
 * state (about 0.2 KiB that two KYC screens share: in their own file they cost `/kyc/persona` more
 * in request and compression overhead than in bytes, ADR 0089). One file instead of about ten: each small file costs a
 * request and its own compression dictionary on every signed-in route's total (`/kyc/persona`'s
 * budget). No public page imports any of these (the web bench lists what each page loads).
 */
const appShellModule =
  /\/web\/src\/(app\/app-layout\.tsx|styles\/app\.css|content\/(de\/)?(app-shell|session)\.ts|lib\/(journey|session|use-resource)\.tsx?|features\/session\/(lib\/)?[^/]+\.tsx?|components\/(app-title|screen-heading)\.tsx)$|\/lambdas\/contracts\/(me|kyc|kyc-inquiry|signed-in-route-keys)\.ts$|\/web\/src\/features\/kyc\/(api\/kyc-api|lib\/submission)\.ts$/;

/** The identity SDK, `lib/auth/auth0.tsx` and the site's configuration (`/config.json`). */
const auth0Module =
  /node_modules\/@auth0\/|\/web\/src\/lib\/(auth\/auth0\.tsx|config\.ts)$|\/lambdas\/contracts\/web-config\.ts$/;

/**
 * The API client and the two contracts every caller of it reads: its problems, and the organization
 * types and roles (the register page and the signed-in app, the only pages that call the API with
 * them). One file instead of two: a file of 169 bytes cost more in request and compression overhead
 * than its bytes on `/kyc/persona`'s budget.
 */
/**
 * What every public form shares (the field, the form hook, the public API client and the contracts
 * every form's schema reads): one file instead of five small ones, each of which cost request and
 * compression overhead on `/register`'s budget (ADR 0089). Only pages with a form load it.
 */
const formModule =
  /\/web\/src\/(components\/field\.tsx|lib\/(use-contract-form|public-api)\.ts)$|\/lambdas\/contracts\/(common|business-email|route-keys)\.ts$/;

const apiClientModule = /\/web\/src\/lib\/api-client\.ts$|\/lambdas\/contracts\/(problem|organization)\.ts$/;

/** A signed-in screen's lazy module (web/src/features/<feature>/screens/<screen>.tsx). */
const appScreenModule = /\/web\/src\/features\/[^/]+\/screens\/[^/]+\.tsx$/;
const appScreenPrefix = 'view-';

/** The web app's Vite config; local/web builds its dev server from this with a proxy target. */
export function webViteConfig(options: WebViteOptions = {}): UserConfig {
  return {
    root: webRoot,
    publicDir: 'public',
    clearScreen: false,
    resolve: {
      // react-router exports its development build (warnings, invariant texts) under the
      // `development` condition, which the dev server resolves; the production build it also ships
      // is smaller and what a browser should get, in every mode.
      alias: [
        { find: /^react-router$/, replacement: reactRouterBuild('index.js') },
        { find: /^react-router\/dom$/, replacement: reactRouterBuild('dom-export.js') },
      ],
    },
    // SITE_URL (canonical URLs, sitemap) is read at build time; nothing secret starts with it.
    envPrefix: ['VITE_', 'SITE_URL'],
    plugins: [
      localePlugin(options.locale ?? 'en', {
        publicPaths: publicPaths.map((entry) => entry.basePath),
        germanMessages: germanLiterals,
      }),
      react(),
      auth0TokenWorkerPlugin(),
      headScriptPlugin(),
      criticalPathPlugin(),
      chunkModulesPlugin(),
      prerenderPlugin(options.locale ?? 'en'),
    ],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      assetsDir: 'assets',
      // The prerender links each page's CSS from it; the web bench follows its imports.
      manifest: true,
      // No JS preload lists (ADR 0089): for each lazy route the boot chunk named every JS file it
      // imports, about 0.6 KiB of gzip on every page. The bundler hoists a chunk's transitive
      // imports into its own import list, so without them a lazy route's files arrive one round trip
      // after its chunk, all together; a public page is prerendered and readable meanwhile, and the
      // signed-in screens never had their JS preloaded. Each lazy route's CSS is still loaded with
      // it (the helper keeps CSS), so no screen paints unstyled.
      modulePreload: false,
      rollupOptions: {
        output: {
          // What every page runs (React, React Router and the few modules the layout and every page
          // share) in one chunk: left alone, the bundler splits it into about ten small files
          // (the signed-in app's lazy chunks share them too), and each file costs request and
          // compression overhead on `/`'s initial-JS budget.
          codeSplitting: {
            groups: [
              { name: 'framework', test: frameworkModule },
              { name: 'router', test: routerModule },
              // Only the listed modules: their dependencies (the auth actions, the API client, config)
              // are shared with public pages and stay in their own files.
              { name: 'app-shell', test: appShellModule, includeDependenciesRecursively: false },
              // The identity SDK with the one module that imports it and the configuration it starts
              // from: the app shell and a public page's Log In load them together anyway.
              { name: 'auth0', test: auth0Module, includeDependenciesRecursively: false },
              { name: 'api-client', test: apiClientModule, includeDependenciesRecursively: false },
              { name: 'forms', test: formModule, includeDependenciesRecursively: false },
              { name: 'forms', test: formModule, includeDependenciesRecursively: false },
              // What the identity verification's screens share: one file, not three small ones.
            ],
          },
          chunkFileNames: (chunk) =>
            chunk.facadeModuleId && appScreenModule.test(chunk.facadeModuleId)
              ? `assets/${appScreenPrefix}[name]-[hash].js`
              : 'assets/[name]-[hash].js',
        },
      },
    },
    server: options.apiProxyTarget
      ? {
          proxy: {
            // CloudFront forwards /api/* to the HTTP API with the API's own Host header; do the same.
            '/api': {
              target: options.apiProxyTarget,
              changeOrigin: true,
              ...(options.apiProxyRequest
                ? {
                    configure: (proxy) => {
                      const edit = options.apiProxyRequest;
                      if (edit) proxy.on('proxyReq', (proxyRequest, req) => edit(proxyRequest, req));
                    },
                  }
                : {}),
            },
          },
        }
      : {},
  };
}

/** `WEB_LOCALE=de` builds the German site (web/scripts/build.ts builds both and merges them). */
function localeFromEnv(value: string | undefined): Locale {
  if (value === undefined || value === '' || value === 'en') return 'en';
  if (value === 'de') return 'de';
  throw new Error(`WEB_LOCALE must be "en" or "de", got "${value}"`);
}

export default defineConfig(webViteConfig({ locale: localeFromEnv(process.env.WEB_LOCALE) }));
