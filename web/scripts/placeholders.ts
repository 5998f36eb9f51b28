// The production build refuses to ship company details that are still placeholders.

/** `TODO`, `XXX`, `TBD` or anything in square brackets (`[Bank name]`). */
const placeholder = /\bTODO\b|\bXXX\b|\bTBD\b|\[[^\]]*\]/;

export const allowPlaceholdersEnv = 'ALLOW_PLACEHOLDER_CONTENT';

/** Every `key.path: "value"` of `value` that is still a placeholder. */
export function findPlaceholders(value: unknown, at = ''): string[] {
  if (typeof value === 'string') return placeholder.test(value) ? [`${at}: ${JSON.stringify(value)}`] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => findPlaceholders(item, `${at}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => findPlaceholders(item, at ? `${at}.${key}` : key));
  }
  return [];
}

/**
 * Local and test builds may carry placeholders: `ALLOW_PLACEHOLDER_CONTENT=1`, or a build started
 * by Vitest (the stack tests build the site from a child of the Vitest process).
 */
export function placeholdersAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[allowPlaceholdersEnv] === '1' || env.VITEST === 'true';
}

export class PlaceholderContentError extends Error {
  override readonly name = 'PlaceholderContentError';
  constructor(file: string, found: readonly string[]) {
    super(
      `${file} still holds placeholder values, so this build must not ship:\n` +
        found.map((line) => `  - ${line}`).join('\n') +
        `\nFill them in, or set ${allowPlaceholdersEnv}=1 for a local or test build.`,
    );
  }
}
