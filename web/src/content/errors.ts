export const errors = {
  notFound: {
    title: 'Page not found',
    body: 'The page you are looking for does not exist or has moved.',
    home: 'Go to the home page',
  },
  unexpected: {
    title: 'Something went wrong',
    body: 'An unexpected error stopped this page from loading. Please try again in a moment.',
    home: 'Go to the home page',
  },
} as const;
