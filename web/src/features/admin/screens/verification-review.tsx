import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';

// Interim: replaced by the screen itself (issue 9, section 4).
export function Component() {
  return (
    <section className="container app-screen prose">
      <AppTitle title="Verification Review" />
      <ScreenHeading>Verification Review</ScreenHeading>
    </section>
  );
}
