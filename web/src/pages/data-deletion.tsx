import { paths } from '#web/config/paths.ts';
import { dataDeletion } from '#web/content/pages/legal/data-deletion.ts';
import { DataDeletionForm } from '#web/features/data-deletion/index.ts';
import { PolicyPage } from './components/policy-page.tsx';

export function Component() {
  return (
    <PolicyPage
      document={dataDeletion}
      path={paths.dataDeletion.path}
      slots={{ 'deletion-form': <DataDeletionForm /> }}
    />
  );
}
