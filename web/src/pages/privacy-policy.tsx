import { paths } from '#web/config/paths.ts';
import { privacyPolicy } from '#web/content/pages/legal/privacy-policy.ts';
import { CompanyContact } from './components/company-contact.tsx';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  return (
    <PolicyPage
      document={privacyPolicy}
      path={paths.privacyPolicy.path}
      slots={{ 'company-contact': <CompanyContact /> }}
    />
  );
}
