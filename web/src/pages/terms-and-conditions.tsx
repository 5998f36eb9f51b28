import { paths } from '#web/config/paths.ts';
import { termsAndConditions } from '#web/content/pages/legal/terms-and-conditions.ts';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  return <PolicyPage document={termsAndConditions} path={paths.termsAndConditions.path} />;
}
