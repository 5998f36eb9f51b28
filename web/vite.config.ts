import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { themeScript } from './theme-script.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** Where the build writes `{ "script-src": ["'sha256-...'"] }` for the CSP (infra and local/web read it). */
export const cspHashesFile = 'csp-hashes.json';

/** The CSP source expression that allows exactly this inline script. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

const themeScriptPlaceholder = '<!-- theme-script -->';

/** Injects the theme script into <head> and, on build, records its hash next to index.html. */
export function themeScriptPlugin(): Plugin {
  return {
    name: 'theme-script',
    transformIndexHtml: {
      order: 'pre',
      // A placeholder, not a prepended tag: the script belongs right after <meta charset>, before
      // any stylesheet (a script after a stylesheet waits for it).
      handler(html) {
        if (!html.includes(themeScriptPlaceholder)) {
          throw new Error(`index.html must contain ${themeScriptPlaceholder}`);
        }
        return html.replace(themeScriptPlaceholder, () => `<script>${themeScript}</script>`);
      },
    },
    generateBundle() {
      const hashes = { 'script-src': [scriptHashSource(themeScript)] };
      this.emitFile({
        type: 'asset',
        fileName: cspHashesFile,
        source: `${JSON.stringify(hashes, null, 2)}\n`,
      });
    },
  };
}

export interface WebViteOptions {
  /** Where the dev server sends `/api/*` (the local API gateway). */
  apiProxyTarget?: string;
}

/** The web app's Vite config; local/web builds its dev server from this with a proxy target. */
export function webViteConfig(options: WebViteOptions = {}): UserConfig {
  return {
    root: webRoot,
    publicDir: 'public',
    clearScreen: false,
    plugins: [react(), themeScriptPlugin()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      assetsDir: 'assets',
    },
    server: options.apiProxyTarget
      ? {
          proxy: {
            // CloudFront forwards /api/* to the HTTP API with the API's own Host header; do the same.
            '/api': { target: options.apiProxyTarget, changeOrigin: true },
          },
        }
      : {},
  };
}

export default defineConfig(webViteConfig());
