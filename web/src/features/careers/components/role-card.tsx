import { company } from '#web/content/company.ts';
import { careers, type Role } from '#web/content/pages/careers.ts';
import { mailtoHref } from '#web/features/careers/lib/mailto.ts';

export function RoleCard({ role }: { role: Role }) {
  const titleId = `role-${role.id}`;
  return (
    <article className="card role" aria-labelledby={titleId}>
      <h3 id={titleId}>{role.title}</h3>
      <dl className="role__facts">
        <div>
          <dt>{careers.typeLabel}</dt>
          <dd>{role.type}</dd>
        </div>
        <div>
          <dt>{careers.locationLabel}</dt>
          <dd>{role.location}</dd>
        </div>
      </dl>
      <p>{role.description}</p>
      <h4>{careers.requirementsTitle}</h4>
      <ul>
        {role.requirements.map((requirement) => (
          <li key={requirement}>{requirement}</li>
        ))}
      </ul>
      <a
        className="button"
        aria-label={careers.applyFor(role.title)}
        href={mailtoHref(company.careersEmail, {
          subject: careers.applicationSubject(role.title),
          body: careers.applicationBody(role.title),
        })}
      >
        {careers.apply}
      </a>
    </article>
  );
}

export function GeneralApplicationLink() {
  return (
    <a
      className="button button--secondary"
      href={mailtoHref(company.careersEmail, {
        subject: careers.general.subject,
        body: careers.general.mailBody,
      })}
    >
      {careers.general.action}
    </a>
  );
}
