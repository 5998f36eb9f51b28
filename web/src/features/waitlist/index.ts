// The waitlist feature's public face: the home page's sign-up form.
export { WaitlistForm } from './components/waitlist-form.tsx';
