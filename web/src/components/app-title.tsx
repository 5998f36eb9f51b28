import { pageTitle } from '#web/content/site.ts';

/** A signed-in screen's document title; app screens stay out of search engines. */
export function AppTitle({ title }: { title: string }) {
  return (
    <>
      <title>{pageTitle(title)}</title>
      <meta name="robots" content="noindex" />
    </>
  );
}
