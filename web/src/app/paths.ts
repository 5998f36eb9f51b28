// The route registry: every link goes through getHref, every route object uses path.
export const paths = {
  home: { path: '/', getHref: () => '/' },
} as const;
