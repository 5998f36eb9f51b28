import { buildLocale } from '#web/config/locale.ts';
import { company } from '#web/content/company.ts';

/** The company's name, address and email, from the one content file that holds them. */
export function CompanyContact() {
  return (
    <address className="company-contact">
      {company.legalName}
      <br />
      {company.street}
      <br />
      {company.postalCode} {company.city}
      <br />
      {company.country[buildLocale]}
      <br />
      <a href={`mailto:${company.email}`}>{company.email}</a>
    </address>
  );
}
