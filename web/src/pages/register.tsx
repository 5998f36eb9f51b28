import { paths } from '#web/app/paths.ts';
import { Seo } from '#web/components/seo.tsx';

// Interim: the registration wizard replaces this page (issue 9, section 4).
export function Component() {
  return (
    <>
      <Seo
        title="Register your organization"
        description="Create an account for your organization on the platform in three short steps."
        path={paths.register.path}
      />
      <div className="container prose page-body">
        <h1>Register your organization</h1>
      </div>
    </>
  );
}
