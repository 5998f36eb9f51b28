// The contact feature's public face: the contact page's form.
export { ContactForm } from './components/contact-form.tsx';
