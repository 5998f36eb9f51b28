import { Link } from 'react-router';
import { buildLocale } from '#web/config/locale.ts';
import { paths } from '#web/config/paths.ts';
import { company } from '#web/content/company.ts';
import { site } from '#web/content/site.ts';
import { LanguageSwitch } from './language-switch.tsx';

const copy = site.footer;

/** `onOpenCookieSettings` reopens the cookie banner (the layout passes the cookie-consent feature's). */
export function SiteFooter({ onOpenCookieSettings }: { onOpenCookieSettings: () => void }) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div>
          <p className="site-footer__name">{site.productName}</p>
          <p>{copy.note}</p>
          <p>
            {site.language.label}: <LanguageSwitch />
          </p>
        </div>
        <nav aria-label={copy.label} className="site-footer__nav">
          <div>
            <h2 className="site-footer__heading">{copy.resources}</h2>
            <ul>
              <li>
                <Link to={paths.documentation.getHref()}>{copy.documentation}</Link>
              </li>
              <li>
                <Link to={paths.tutorials.getHref()}>{copy.tutorials}</Link>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">{copy.company}</h2>
            <ul>
              <li>
                <Link to={paths.careers.getHref()}>{copy.careers}</Link>
              </li>
              <li>
                <Link to={paths.investors.getHref()}>{copy.investors}</Link>
              </li>
              <li>
                <Link to={paths.contact.getHref()}>{copy.contact}</Link>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">{copy.legal}</h2>
            <ul>
              <li>
                <Link to={paths.termsAndConditions.getHref()}>{copy.terms}</Link>
              </li>
              <li>
                <Link to={paths.privacyPolicy.getHref()}>{copy.privacy}</Link>
              </li>
              <li>
                <Link to={paths.gdprCompliance.getHref()}>{copy.gdpr}</Link>
              </li>
              <li>
                <Link to={paths.impressum.getHref()}>{copy.impressum}</Link>
              </li>
              <li>
                <button type="button" className="link-button" onClick={onOpenCookieSettings}>
                  {copy.cookieSettings}
                </button>
              </li>
            </ul>
          </div>
        </nav>
        <div className="site-footer__company">
          <h2 className="site-footer__heading">{copy.registration}</h2>
          <p>
            {company.legalName}, {company.street}, {company.postalCode} {company.city},{' '}
            {company.country[buildLocale]}
            <br />
            {company.registration.court}, {company.registration.number}, {company.registration.vatId}
          </p>
          <h2 className="site-footer__heading">{copy.banking}</h2>
          <p>
            {company.banking.bank}, {copy.iban} {company.banking.iban}, {copy.bic} {company.banking.bic}
          </p>
        </div>
      </div>
    </footer>
  );
}
