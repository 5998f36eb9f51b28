// The product's languages as the API speaks them (issue 28, ADR 0089). The web sends its language
// in `Accept-Language` on every call; problem details, field errors and emails follow it, and what
// a person registered or consented in is recorded with its language. (web/src/config/locale.ts is
// the web's own list; both must name the same two.)
export const apiLocales = ['en', 'de'] as const;
export type ApiLocale = (typeof apiLocales)[number];
export const defaultApiLocale: ApiLocale = 'en';

export function isApiLocale(value: unknown): value is ApiLocale {
  return value === 'en' || value === 'de';
}

/**
 * The language an `Accept-Language` header prefers among ours: the first range (by q, then by
 * order) whose primary tag is one of them; English when none is, or without the header.
 */
export function negotiateLocale(header: string | undefined): ApiLocale {
  if (!header) return defaultApiLocale;
  const ranges = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split('-')[0];
    if (isApiLocale(primary)) return primary;
  }
  return defaultApiLocale;
}
