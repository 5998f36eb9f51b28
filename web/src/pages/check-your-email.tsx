import { paths } from '#web/app/paths.ts';
import { Seo } from '#web/components/seo.tsx';

// Interim: the registration feature replaces this page (issue 9, section 4).
export function Component() {
  return (
    <>
      <Seo
        title="Check your email"
        description="Your account has been created. Check your inbox for the email with your login instructions."
        path={paths.checkYourEmail.path}
        noindex
      />
      <div className="container prose page-body">
        <h1>Check your email</h1>
      </div>
    </>
  );
}
