import { home } from '../../content/home.ts';
import { pageTitle, site } from '../../content/site.ts';
import { WaitlistForm } from '../../features/waitlist/components/waitlist-form.tsx';

export function Home() {
  return (
    <>
      <title>{pageTitle()}</title>
      <section className="hero">
        <div className="container">
          <p className="hero__eyebrow">{site.tagline}</p>
          <h1>{home.hero.title}</h1>
          <p className="hero__lead">{home.hero.lead}</p>
        </div>
      </section>
      <section className="container waitlist" aria-labelledby="waitlist-title">
        <h2 id="waitlist-title">{home.waitlist.title}</h2>
        <p>{home.waitlist.lead}</p>
        <WaitlistForm />
      </section>
    </>
  );
}

export { Home as Component };
