import { paths } from '#web/config/paths.ts';
import { gdprCompliance } from '#web/content/pages/legal/gdpr-compliance.ts';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  return <PolicyPage document={gdprCompliance} path={paths.gdprCompliance.path} />;
}
