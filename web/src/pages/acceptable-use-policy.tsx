import { paths } from '#web/config/paths.ts';
import { acceptableUsePolicy } from '#web/content/pages/legal/acceptable-use-policy.ts';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  return <PolicyPage document={acceptableUsePolicy} path={paths.acceptableUsePolicy.path} />;
}
