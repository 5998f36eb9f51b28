// The registration feature's public face: the /register wizard, and /check-your-email's "Resend".
export { RegistrationWizard } from './components/registration-wizard.tsx';
export { ResendLoginInstructions } from './components/resend-login-instructions.tsx';
