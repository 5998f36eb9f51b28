import type { PageMeta } from './types.ts';

export const notFound = {
  meta: {
    title: 'Page not found',
    description: 'The page you are looking for does not exist or has moved. Go back to the home page.',
  } satisfies PageMeta,
  title: 'Page not found',
  body: 'The page you are looking for does not exist or has moved.',
  home: 'Go to the home page',
} as const;
