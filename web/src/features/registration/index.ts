// The registration feature's public face: the /register wizard.
export { RegistrationWizard } from './components/registration-wizard.tsx';
