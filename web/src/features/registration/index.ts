// The registration feature's public face: the /register wizard, and its request, which
// /check-your-email's "Resend" sends again (ADR 0086).
export { createRegistration } from './api/create-registration.ts';
export { RegistrationWizard } from './components/registration-wizard.tsx';
