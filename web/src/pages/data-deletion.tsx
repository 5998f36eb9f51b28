import { paths } from '../app/paths.ts';
import { dataDeletion } from '../content/pages/legal/data-deletion.ts';
import { DataDeletionForm } from '../features/data-deletion/components/data-deletion-form.tsx';
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
