import type { ApiLocale } from '#contracts/locale.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';

// Every email is built here from plain values: anything a person typed (names, organization
// names) is escaped before it reaches HTML, and links are only ever our own absolute URLs.

/**
 * An email's texts in every language of the API (issue 28): each email function takes the
 * person's `locale` and picks from such a pair, so a missing German text is a type error.
 */
export type Localized<T> = Record<ApiLocale, T>;

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/** Joins an origin and a path without doubling or dropping the slash. */
export function appLink(appUrl: string, path: string): string {
  return `${appUrl.replace(/(?<!\/)\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Header lines must not carry line breaks (header injection through a name in a subject). */
export function singleLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').trim();
}

export interface Paragraph {
  text: string;
  link?: { label: string; href: string };
}

/** A small, accessible email: one heading, paragraphs, at most one call-to-action link each. */
export function composeEmail(input: {
  to: string;
  /** The `lang` of the HTML part; English (the operations notices) when not given. */
  locale?: ApiLocale;
  subject: string;
  heading: string;
  paragraphs: Paragraph[];
}): EmailMessage {
  const text = [
    input.heading,
    '',
    ...input.paragraphs.flatMap((p) => [p.link ? `${p.text}\n${p.link.label}: ${p.link.href}` : p.text, '']),
  ]
    .join('\n')
    .trimEnd();
  const body = input.paragraphs
    .map((p) => {
      const link = p.link ? `<br><a href="${escapeHtml(p.link.href)}">${escapeHtml(p.link.label)}</a>` : '';
      return `<p>${escapeHtml(p.text)}${link}</p>`;
    })
    .join('\n');
  const html = `<!doctype html>
<html lang="${input.locale ?? 'en'}"><head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body>
<h1>${escapeHtml(input.heading)}</h1>
${body}
</body></html>`;
  return { to: input.to, subject: singleLine(input.subject), text: `${text}\n`, html };
}
