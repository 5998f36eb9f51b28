// The data-deletion feature's public face: the request form and the confirmation call its
// confirmation page makes.
export { confirmDataDeletion } from './api/request-data-deletion.ts';
export { DataDeletionForm } from './components/data-deletion-form.tsx';
