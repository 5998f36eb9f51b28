import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { company } from '#web/content/company.ts';
import { impressum as copy } from '#web/content/pages/legal/impressum.ts';
import { CompanyContact } from './components/company-contact.tsx';

export function Component() {
  const directors = company.managingDirectors.join(', ');
  return (
    <>
      <Seo title={copy.meta.title} description={copy.meta.description} path={paths.impressum.path} />
      <div className="container prose page-body">
        <h1>{copy.title}</h1>
        <p>{copy.lead}</p>
        <h2>{copy.provider}</h2>
        <CompanyContact />
        <h2>{copy.contact}</h2>
        <dl className="facts">
          <dt>{copy.email}</dt>
          <dd>
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </dd>
          <dt>{copy.phone}</dt>
          <dd>{company.phone}</dd>
          <dt>{copy.representedBy}</dt>
          <dd>{directors}</dd>
        </dl>
        <h2>{copy.registration}</h2>
        <dl className="facts">
          <dt>{copy.court}</dt>
          <dd>{company.registration.court}</dd>
          <dt>{copy.number}</dt>
          <dd>{company.registration.number}</dd>
          <dt>{copy.vatId}</dt>
          <dd>{company.registration.vatId}</dd>
        </dl>
        <h2>{copy.banking}</h2>
        <dl className="facts">
          <dt>{copy.bank}</dt>
          <dd>{company.banking.bank}</dd>
          <dt>{copy.iban}</dt>
          <dd>{company.banking.iban}</dd>
          <dt>{copy.bic}</dt>
          <dd>{company.banking.bic}</dd>
        </dl>
        <h2>{copy.responsible}</h2>
        <p>{directors}</p>
        <h2>{copy.disputeTitle}</h2>
        <p>{copy.dispute}</p>
      </div>
    </>
  );
}
