import type { Plugin } from 'vite';

/**
 * auth0-spa-js (inlined in @auth0/auth0-react's bundle) carries its refresh-token Web Worker as a
 * base64 string, about 4 KiB of gzip that no bundler can drop: the SDK only starts the worker with
 * `cacheLocation: 'memory'`, a runtime option. Our sessions keep their tokens in local storage
 * (`auth0Options` in web/src/lib/auth/auth0.tsx, ADR 0029), so the string is dead weight on every
 * signed-in route. This build replaces it with a worker that only reports why it cannot run.
 *
 * The replacement is exact or the build fails: the marker is the first line the SDK's worker
 * loader writes ("/* rollup-plugin-web-worker-loader *\/"); found other than once, an SDK upgrade
 * changed the inlining and the plugin stops rather than guess.
 */
export const auth0TokenWorkerMarker = 'Lyogcm9sbHVwLXBsdWdpbi13ZWItd29ya2VyLWxvYWRlciAq';

const inlineWorker = new RegExp(`"(${auth0TokenWorkerMarker}[A-Za-z0-9+/=]+)"`, 'g');

/** What the SDK would run instead of its worker (it drops the loader's first line, the marker). */
export const removedWorkerSource = [
  '/* rollup-plugin-web-worker-loader */',
  'throw new Error("The auth0-spa-js token worker is left out of this build (web/scripts/auth0-token-worker.ts): it runs only with cacheLocation \'memory\'.");',
].join('\n');

const auth0ReactBundle = /node_modules\/@auth0\/auth0-react\/dist\/auth0-react\.esm\.js$/;

/** Replaces the SDK's inline token worker in the given auth0-react bundle source. */
export function stripAuth0TokenWorker(code: string): string {
  const found = code.match(inlineWorker) ?? [];
  if (found.length !== 1) {
    throw new Error(
      `auth0-token-worker: expected the SDK's inline token worker once in @auth0/auth0-react, found it ${found.length} times; check the SDK's worker loader after the upgrade`,
    );
  }
  const replacement = Buffer.from(removedWorkerSource, 'utf8').toString('base64');
  return code.replace(inlineWorker, () => `"${replacement}"`);
}

export function auth0TokenWorkerPlugin(): Plugin {
  return {
    name: 'auth0-token-worker',
    apply: 'build',
    transform(code, id) {
      if (!auth0ReactBundle.test(id)) return null;
      return { code: stripAuth0TokenWorker(code), map: null };
    },
  };
}
