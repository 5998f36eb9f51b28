import { contactRequest } from '#contracts/contact.ts';
import { MessageForm } from '#web/components/message-form.tsx';
import { contact } from '#web/content/pages/contact.ts';
import { sendContactMessage } from '#web/features/contact/api/send-contact-message.ts';

/** The contact page's form: every field required. */
export function ContactForm() {
  return <MessageForm copy={contact.form} schema={contactRequest} submit={sendContactMessage} requireAll />;
}
