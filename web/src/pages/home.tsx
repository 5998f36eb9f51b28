import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { homeSections, paths, sectionHref } from '#web/config/paths.ts';
import { home } from '#web/content/pages/home.ts';
import { WaitlistForm } from '#web/features/waitlist/index.ts';

export function Component() {
  return (
    <>
      <Seo title={null} description={home.meta.description} path={paths.home.path} />
      {/* The hero is the LCP element: text only, the same in the prerendered HTML and after hydration. */}
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <p className="hero__eyebrow">{home.hero.eyebrow}</p>
          <h1 id="hero-title">{home.hero.title}</h1>
          <p className="hero__lead">{home.hero.lead}</p>
          <div className="actions">
            <a className="button" href={sectionHref('waitlist')}>
              {home.hero.primaryAction}
            </a>
            <a className="button button--secondary" href={sectionHref('framework')}>
              {home.hero.secondaryAction}
            </a>
          </div>
        </div>
      </section>

      <section id={homeSections.framework} className="band" aria-labelledby="framework-title">
        <div className="container">
          <h2 id="framework-title" className="section-anchor">
            {home.framework.title}
          </h2>
          <p className="lead">{home.framework.lead}</p>
          <ul className="card-grid">
            {home.framework.pillars.map((pillar) => (
              <li key={pillar.title} className="card">
                <h3>{pillar.title}</h3>
                <p>{pillar.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id={homeSections.vision} className="band band--surface" aria-labelledby="vision-title">
        <div className="container">
          <h2 id="vision-title" className="section-anchor">
            {home.vision.title}
          </h2>
          <p className="lead">{home.vision.lead}</p>
          <ul className="card-grid">
            {home.vision.points.map((point) => (
              <li key={point.title} className="card">
                <h3>{point.title}</h3>
                <p>{point.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="band" aria-labelledby="claims-title">
        <div className="container">
          <h2 id="claims-title">{home.claims.title}</h2>
          <ul className="claims">
            {home.claims.items.map((claim) => (
              <li key={claim.figure} className="claim">
                <p className="claim__figure">
                  {claim.figure} <span className="claim__label">{claim.label}</span>
                </p>
                <p>{claim.body}</p>
              </li>
            ))}
          </ul>
          <p className="note">{home.claims.benchmarksNote}</p>
        </div>
      </section>

      <section id={homeSections.account} className="band band--surface" aria-labelledby="account-title">
        <div className="container">
          <h2 id="account-title" className="section-anchor">
            {home.account.title}
          </h2>
          <p className="lead">{home.account.lead}</p>
          <ul className="checklist">
            {home.account.benefits.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>
          <div className="actions">
            <Link className="button" to={paths.register.getHref()}>
              {home.account.register}
            </Link>
            <Link className="button button--secondary" to={paths.pricing.getHref()}>
              {home.account.pricing}
            </Link>
          </div>
        </div>
      </section>

      <section id={homeSections.waitlist} className="band" aria-labelledby="waitlist-title">
        <div className="container">
          <h2 id="waitlist-title" className="section-anchor">
            {home.waitlist.title}
          </h2>
          <p>{home.waitlist.lead}</p>
          <WaitlistForm />
        </div>
      </section>
    </>
  );
}
