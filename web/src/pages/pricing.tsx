import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { pricing } from '#web/content/pages/pricing.ts';

export function Component() {
  const { plan } = pricing;
  return (
    <>
      <Seo title={pricing.meta.title} description={pricing.meta.description} path={paths.pricing.path} />
      <div className="container page-body">
        <h1>{pricing.title}</h1>
        <p className="lead">{pricing.lead}</p>
        <section className="card plan" aria-labelledby="plan-title">
          <h2 id="plan-title">{plan.name}</h2>
          <p className="plan__price">{plan.price}</p>
          <p>{plan.priceNote}</p>
          <h3>{plan.featuresTitle}</h3>
          <ul className="checklist">
            {plan.features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
          <Link className="button" to={paths.contact.getHref()}>
            {plan.cta}
          </Link>
        </section>
        <section aria-labelledby="faq-title" className="page-section">
          <h2 id="faq-title">{pricing.faqTitle}</h2>
          <dl className="faq">
            {pricing.faq.map((entry) => (
              <div key={entry.question}>
                <dt>{entry.question}</dt>
                <dd>{entry.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </>
  );
}
