import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { investors } from '#web/content/pages/investors.ts';
import { InvestorInquiryForm } from '#web/features/investors/index.ts';

export function Component() {
  const { market, form } = investors;
  return (
    <>
      <Seo
        title={investors.meta.title}
        description={investors.meta.description}
        path={paths.investors.path}
      />
      <div className="container page-body">
        <h1>{investors.title}</h1>
        <p className="lead">{investors.lead}</p>
        <section aria-labelledby="market-title" className="page-section">
          <h2 id="market-title">{market.title}</h2>
          <ul className="claims">
            {market.segments.map((segment) => (
              <li key={segment.name} className="claim">
                <p className="claim__figure">{segment.value}</p>
                <h3>{segment.name}</h3>
                <p>{segment.body}</p>
              </li>
            ))}
          </ul>
          <p className="market-total">
            <span className="claim__figure">{market.total.value}</span> {market.total.name}
          </p>
        </section>
        <section aria-labelledby="inquiry-title" className="page-section">
          <h2 id="inquiry-title">{form.title}</h2>
          <p>{form.lead}</p>
          <InvestorInquiryForm />
        </section>
      </div>
    </>
  );
}
