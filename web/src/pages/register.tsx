import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { registration } from '#web/content/registration.ts';
import { RegistrationWizard } from '#web/features/registration/index.ts';

export function Component() {
  return (
    <>
      <Seo
        title={registration.meta.title}
        description={registration.meta.description}
        path={paths.register.path}
      />
      <div className="container page-body registration">
        <h1>{registration.title}</h1>
        <p className="lead">{registration.lead}</p>
        <RegistrationWizard />
      </div>
    </>
  );
}
