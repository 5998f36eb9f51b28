import { useId } from 'react';
import { Link } from 'react-router';
import type { MeResponse } from '#contracts/me.ts';
import { paths } from '#web/config/paths.ts';
import { organizationTypeName, verificationStatusNames } from '#web/content/account.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';

const copy = dashboardsCopy.setup.account;

/** The account's facts as the server knows them (`GET /api/me`). */
export function AccountCard({ me }: { me: MeResponse }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="app-card">
      <h2 id={headingId}>{copy.heading}</h2>
      <dl className="app-facts">
        <dt>{copy.email}</dt>
        <dd>{me.email}</dd>
        <dt>{copy.emailVerified}</dt>
        <dd>{me.emailVerified ? copy.yes : copy.no}</dd>
        <dt>{copy.organizationType}</dt>
        <dd>{organizationTypeName(me.organizationType)}</dd>
        <dt>{copy.verification}</dt>
        <dd>{verificationStatusNames[me.kycStatus]}</dd>
      </dl>
      <p className="account-card__link">
        <Link to={paths.userAccount.getHref()}>{copy.manage}</Link>
      </p>
    </section>
  );
}
