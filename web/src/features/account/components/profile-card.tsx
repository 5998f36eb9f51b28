import { useId } from 'react';
import type { MeResponse } from '#contracts/me.ts';
import { accountCopy, notSet, organizationTypeName, verificationStatusNames } from '#web/content/account.ts';

const copy = accountCopy.profile;

/** The caller's profile as the server knows it (`GET /api/me`). */
export function ProfileCard({ me }: { me: MeResponse }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="app-card account-section">
      <h2 id={headingId}>{copy.heading}</h2>
      <dl className="app-facts">
        <dt>{copy.name}</dt>
        <dd>{me.name.trim() || notSet}</dd>
        <dt>{copy.email}</dt>
        <dd>{me.email}</dd>
        <dt>{copy.organization}</dt>
        <dd>{me.organizationName?.trim() || notSet}</dd>
        <dt>{copy.organizationType}</dt>
        <dd>{organizationTypeName(me.organizationType)}</dd>
        <dt>{copy.verification}</dt>
        <dd>{verificationStatusNames[me.kycStatus]}</dd>
      </dl>
    </section>
  );
}
