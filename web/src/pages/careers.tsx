import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { careers } from '#web/content/pages/careers.ts';
import { GeneralApplicationLink, RoleCard } from '#web/features/careers/index.ts';

export function Component() {
  return (
    <>
      <Seo title={careers.meta.title} description={careers.meta.description} path={paths.careers.path} />
      <div className="container page-body">
        <h1>{careers.title}</h1>
        <p className="lead">{careers.lead}</p>
        <section aria-labelledby="roles-title" className="page-section">
          <h2 id="roles-title">{careers.rolesTitle}</h2>
          <div className="role-list">
            {careers.roles.map((role) => (
              <RoleCard key={role.id} role={role} />
            ))}
          </div>
        </section>
        <section aria-labelledby="general-title" className="page-section">
          <h2 id="general-title">{careers.general.title}</h2>
          <p>{careers.general.body}</p>
          <GeneralApplicationLink />
        </section>
      </div>
    </>
  );
}
