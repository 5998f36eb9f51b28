// The public origin for canonical URLs, Open Graph and the sitemap: `SITE_URL` at build time
// (Vite exposes it through `envPrefix`), so one build names one site. It is an https origin
// (`https://your.domain`); trailing slashes are dropped. Unset, the dev server, local and test
// builds use `defaultSiteUrl`; the production build refuses that (and any reserved example host,
// or anything but an origin): checkSiteUrl in web/scripts/placeholders.ts, run by the prerender.
export const defaultSiteUrl = 'https://platform.example';

function fromEnv(): string | undefined {
  const env = (import.meta as ImportMeta & { env?: Record<string, unknown> }).env;
  const value = env?.SITE_URL;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export const siteUrl = (fromEnv() ?? defaultSiteUrl).replace(/(?<!\/)\/+$/, '');

export function absoluteUrl(path: string): string {
  return path === '/' ? `${siteUrl}/` : `${siteUrl}${path}`;
}
