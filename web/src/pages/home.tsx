import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { homeSections, type PathKey, paths, sectionHref } from '#web/config/paths.ts';
import { type HomeBand, home } from '#web/content/pages/home.ts';
import { WaitlistForm } from '#web/features/waitlist/index.ts';

const bands: readonly HomeBand<PathKey>[] = home.sections;

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
            <Link className="button" to={paths.register.getHref()}>
              {home.hero.register}
            </Link>
            <a className="button button--secondary" href={sectionHref('waitlist')}>
              {home.hero.primaryAction}
            </a>
            <a className="button button--secondary" href={sectionHref('framework')}>
              {home.hero.secondaryAction}
            </a>
          </div>
        </div>
      </section>

      {bands.map((section, index) => {
        // The nav's sections are anchors; their headings keep clear of the fixed nav. Every other
        // band is shaded; under its heading a band shows the parts its content has, in this order.
        const anchor = (homeSections as Partial<Record<string, string>>)[section.name];
        return (
          <section
            key={section.name}
            id={anchor}
            className={index % 2 === 1 ? 'band band--surface' : 'band'}
            aria-labelledby={`${section.name}-title`}
          >
            <div className="container">
              <h2 id={`${section.name}-title`} className={anchor && 'section-anchor'}>
                {section.title}
              </h2>
              {section.lead && <p className="lead">{section.lead}</p>}
              {section.intro && <p>{section.intro}</p>}
              {section.cards && (
                <ul className="card-grid">
                  {section.cards.map((card) => (
                    <li key={card.title} className="card">
                      <h3>{card.title}</h3>
                      <p>{card.body}</p>
                    </li>
                  ))}
                </ul>
              )}
              {section.claims && (
                <ul className="claims">
                  {section.claims.map((claim) => (
                    <li key={claim.figure} className="claim">
                      <p className="claim__figure">
                        {claim.figure} <span className="claim__label">{claim.label}</span>
                      </p>
                      <p>{claim.body}</p>
                    </li>
                  ))}
                </ul>
              )}
              {section.note && <p className="note">{section.note}</p>}
              {section.items && (
                <ul className="checklist">
                  {section.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              )}
              {section.actions && (
                <div className="actions">
                  {section.actions.map((action, position) => (
                    <Link
                      key={action.to}
                      className={position === 0 ? 'button' : 'button button--secondary'}
                      to={paths[action.to].getHref()}
                    >
                      {action.label}
                    </Link>
                  ))}
                </div>
              )}
              {section.form && <WaitlistForm />}
            </div>
          </section>
        );
      })}
    </>
  );
}
