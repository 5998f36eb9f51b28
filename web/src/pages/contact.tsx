import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { contact } from '#web/content/pages/contact.ts';
import { ContactForm } from '#web/features/contact/index.ts';

export function Component() {
  return (
    <>
      <Seo title={contact.meta.title} description={contact.meta.description} path={paths.contact.path} />
      <div className="container page-body">
        <h1>{contact.title}</h1>
        <p className="lead">{contact.lead}</p>
        <section aria-labelledby="contact-form-title" className="page-section">
          <h2 id="contact-form-title">{contact.form.title}</h2>
          <ContactForm />
        </section>
        <section aria-labelledby="contact-other-title" className="page-section">
          <h2 id="contact-other-title">{contact.other.title}</h2>
          <ul>
            <li>{contact.other.press}</li>
            <li>
              {contact.other.privacy}{' '}
              <Link to={paths.dataDeletion.getHref()}>{contact.other.privacyLink}</Link>
            </li>
          </ul>
        </section>
      </div>
    </>
  );
}
