// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '#tests/web/render-route.tsx';
import { publicPaths } from '#web/config/paths.ts';
import { company } from '#web/content/company.ts';
import { cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { privacyPolicy as privacyPolicyDe } from '#web/content/de/pages/legal/privacy-policy.ts';
import { termsAndConditions as termsAndConditionsDe } from '#web/content/de/pages/legal/terms-and-conditions.ts';
import { careers } from '#web/content/pages/careers.ts';
import { pricing } from '#web/content/pages/pricing.ts';

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{"success":true}', { status: 201 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('every public page', () => {
  it.each(publicPaths.map((entry) => [entry.path]))('%s has exactly one h1, inside main', async (path) => {
    const { mainElement } = await renderPage(path);
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(mainElement.querySelectorAll('h1')).toHaveLength(1);
    expect(document.querySelectorAll('[style]')).toHaveLength(0);
  });
});

describe('home', () => {
  it('tells the story: hero, framework, vision, claims, account and waitlist', async () => {
    const { main, mainElement } = await renderPage('/');

    expect(main.getByRole('heading', { level: 1, name: 'See where pathogens evolve next' })).toBeDefined();
    // Registration is the hero's first call to action, not only the account band's (ADR 0086).
    const hero = within(mainElement.querySelector<HTMLElement>('section.hero') as HTMLElement);
    const heroActions = hero.getAllByRole('link');
    expect(heroActions[0]?.textContent).toBe('Register your organization');
    expect(heroActions[0]?.getAttribute('href')).toBe('/register');
    expect(hero.getByRole('link', { name: 'Request beta access' }).getAttribute('href')).toBe('/#waitlist');
    const section = (id: string) =>
      within(mainElement.querySelector<HTMLElement>(`section#${id}`) as HTMLElement);
    expect(section('framework').getByRole('heading', { level: 2, name: 'Our Framework' })).toBeDefined();
    expect(section('framework').getByRole('heading', { name: 'The Quantum Engine' })).toBeDefined();
    expect(section('vision').getByRole('heading', { level: 2, name: 'The Vision' })).toBeDefined();
    expect(section('vision').getAllByText(/50\+ nanosatellites/).length).toBeGreaterThan(0);
    expect(
      section('account').getByRole('link', { name: 'Register your organization' }).getAttribute('href'),
    ).toBe('/register');
    expect(section('waitlist').getByLabelText('Email address')).toBeDefined();

    const text = mainElement.textContent ?? '';
    expect(text).toContain('98.7%');
    expect(text).toContain('Variant Emergence Forecasting Benchmark (VEF-2024)');
    expect(text).toContain('Retrospective Lineage Prediction Suite (RLPS v3)');
    expect(text).toContain('SOC 2');
    expect(text).toContain('24/7');
  });
});

describe('pricing', () => {
  it('offers one Organization Plan with custom pricing, its ten features and a way to contact sales', async () => {
    const { main } = await renderPage('/pricing');

    const plan = within(main.getByRole('region', { name: 'Organization Plan' }));
    expect(plan.getByText('Custom pricing')).toBeDefined();
    const features = plan.getAllByRole('listitem').map((item) => item.textContent);
    expect(features).toEqual([...pricing.plan.features]);
    expect(features).toHaveLength(10);
    expect(features).toContain('Access to the Quantum Engine');
    expect(features).toContain('Dedicated account management');
    expect(plan.getByRole('link', { name: 'Contact sales' }).getAttribute('href')).toBe('/contact');
  });
});

describe('careers', () => {
  it('lists three roles with type, location, description and requirements', async () => {
    const { main } = await renderPage('/careers');

    const roles = main.getAllByRole('article');
    expect(roles).toHaveLength(3);
    for (const [index, role] of careers.roles.entries()) {
      const card = within(roles[index] as HTMLElement);
      expect(card.getByRole('heading', { name: role.title })).toBeDefined();
      expect(card.getByText(role.type)).toBeDefined();
      expect(card.getByText(role.location)).toBeDefined();
      expect(card.getByText(role.description)).toBeDefined();
      expect(card.getAllByRole('listitem').map((item) => item.textContent)).toEqual([...role.requirements]);
    }
  });

  it('opens a prefilled, encoded email to the careers address from Apply Now and General Application', async () => {
    const { main } = await renderPage('/careers');

    const apply = main.getByRole('link', { name: 'Apply now for Computational Virologist' });
    const url = new URL(apply.getAttribute('href') ?? '');
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe(company.careersEmail);
    expect(url.search).not.toContain(' ');
    expect(url.searchParams.get('subject')).toBe('Application: Computational Virologist');
    expect(url.searchParams.get('body')).toContain('apply for the Computational Virologist position');
    expect(apply.textContent).toBe('Apply Now');

    const general = new URL(
      main.getByRole('link', { name: 'General Application' }).getAttribute('href') ?? '',
    );
    expect(general.pathname).toBe(company.careersEmail);
    expect(general.searchParams.get('subject')).toBe('General application');
  });
});

describe('investors', () => {
  it('shows the three market segments and the 52B+ total', async () => {
    const { mainElement } = await renderPage('/investors');
    const text = mainElement.textContent ?? '';
    for (const figure of ['€18B', '€22B', '€12B', '€52B+']) expect(text).toContain(figure);
  });
});

describe.each([
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-and-conditions', 'Terms and Conditions'],
  ['/acceptable-use-policy', 'Acceptable Use Policy'],
])('%s', (path, title) => {
  it('is in English, marked as such, and links to the binding German version', async () => {
    const { main } = await renderPage(path);
    expect(main.getByRole('heading', { level: 1, name: title })).toBeDefined();
    expect(document.querySelector('meta[property="og:locale"]')?.getAttribute('content')).toBe('en_GB');
    expect(main.getByText(/The German version is legally binding\./)).toBeDefined();
    const german = main.getByRole('link', { name: 'Read the German version' });
    expect(german.getAttribute('href')).toBe(`/de${path}`);
    expect(german.getAttribute('hreflang')).toBe('de');
    expect(german.getAttribute('lang')).toBe('de');
  });
});

describe('privacy policy', () => {
  it('has the sections a privacy policy under the GDPR needs and names the controller from the company file', async () => {
    const { main, mainElement } = await renderPage('/privacy-policy');
    for (const heading of [
      /Controller/,
      /Purposes and legal bases/,
      /Recipients/,
      /Transfers to third countries/,
      /Retention periods/,
      /Rights of data subjects/,
      /Identity verification/,
    ]) {
      expect(main.getAllByRole('heading', { name: heading }).length).toBeGreaterThan(0);
    }
    const text = mainElement.textContent ?? '';
    expect(text).toContain(company.legalName);
    expect(text).toContain('Persona');
    expect(text).toContain('Auth0');
    expect(text).toContain('Amazon Simple Email Service');
    expect(text).toContain('eu-central-1');
    expect(text).toContain('consent ledger');
    expect(text).toContain('GDPR Art. 9(2)(a)');
  });

  it('states the retention periods and the deletion deadline', async () => {
    const { mainElement } = await renderPage('/privacy-policy');
    const text = mainElement.textContent ?? '';
    expect(text).toContain('Contract records and consent proofs: 10 years');
    expect(text).toContain('KYC records (outcome and history of the identity verification): 5 years');
    expect(text).toContain('Website and server logs: 30 days');
    expect(text).toContain('about 7 years');
    expect(text).toContain('within 30 days');
  });

  it('says the same in its binding German version', () => {
    const text = JSON.stringify(privacyPolicyDe);
    for (const heading of ['Verantwortlicher', 'Zwecke und Rechtsgrundlagen', 'Empfänger', 'Drittländer']) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('Speicherdauer');
    expect(text).toContain('Rechte der Betroffenen');
    expect(text).toContain('Einwilligungsprotokoll');
    expect(text).toContain('Art. 9 Abs. 2 lit. a DSGVO');
    expect(text).toContain('Vertragsdaten und Einwilligungsnachweise: 10 Jahre');
    expect(text).toContain('KYC-Daten (Ergebnis und Verlauf der Identitätsprüfung): 5 Jahre');
    expect(text).toContain('Website- und Server-Logs: 30 Tage');
    expect(text).toContain('etwa 7 Jahre');
    expect(text).toContain('innerhalb von 30 Tagen');
    expect(privacyPolicyDe.binding.notice).toBe(
      'Diese deutsche Fassung ist verbindlich. Die englische Fassung dient nur der Information.',
    );
  });
});

describe('terms and conditions', () => {
  it('grants a 14-day withdrawal right for digital services and keeps contract data 10 years', async () => {
    const { main, mainElement } = await renderPage('/terms-and-conditions');
    expect(main.getByRole('heading', { name: /Right of withdrawal for digital services/ })).toBeDefined();
    const text = mainElement.textContent ?? '';
    expect(text).toContain('within 14 days');
    expect(text).toContain('10 years');
  });

  it('says the same in its binding German version', () => {
    const text = JSON.stringify(termsAndConditionsDe);
    expect(text).toContain('Widerrufsrecht für digitale Dienstleistungen');
    expect(text).toContain('binnen 14 Tagen');
    expect(text).toContain('10 Jahre');
  });
});

describe('EULA', () => {
  it('is an embedded, keyboard-scrollable viewer with a table of contents, last updated June 8 2025', async () => {
    const { main } = await renderPage('/eula');

    expect(main.getByText('June 8, 2025').getAttribute('datetime')).toBe('2025-06-08');
    const viewer = main.getByRole('region', { name: 'End User License Agreement text' });
    expect(viewer.tabIndex).toBe(0);
    const headings = within(viewer).getAllByRole('heading', { level: 2 });
    const toc = within(main.getByRole('navigation', { name: 'Contents' })).getAllByRole('link');
    expect(toc.map((link) => link.getAttribute('href'))).toEqual(headings.map((heading) => `#${heading.id}`));
    expect(toc.map((link) => link.textContent)).toEqual(headings.map((heading) => heading.textContent));
    expect(viewer.textContent).toContain('within 14 days');
  });
});

describe('impressum', () => {
  it('shows the registration and banking details of the company file', async () => {
    const { mainElement } = await renderPage('/impressum');
    const text = mainElement.textContent ?? '';
    for (const value of [
      company.legalName,
      company.registration.court,
      company.registration.number,
      company.registration.vatId,
      company.banking.iban,
      company.banking.bic,
    ]) {
      expect(text).toContain(value);
    }
  });
});

describe('cookie policy', () => {
  it("states the banner's revision and reopens the cookie settings", async () => {
    // A current choice is stored, so the banner starts closed.
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ essential: true, analytics: false, marketing: false, personalization: false }),
    );
    localStorage.setItem('cookie-consent-date', new Date().toISOString());
    localStorage.setItem('cookie-consent-revision', cookiePolicyRevision);
    const { main, user } = await renderPage('/cookie-policy');
    expect(main.getByText(cookiePolicyRevision)).toBeDefined();
    // The banner reads the stored choice in an effect (pending until then): closed once it has.
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Cookies on this site' })).toBeNull());

    await user.click(main.getByRole('button', { name: 'Cookie settings' }));

    expect(screen.getByRole('region', { name: 'Cookies on this site' })).toBeDefined();
  });
});

describe('GDPR compliance and data deletion', () => {
  it('state the retention periods and the 30-day deadline', async () => {
    for (const path of ['/gdpr-compliance', '/data-deletion']) {
      const { mainElement } = await renderPage(path);
      const text = mainElement.textContent ?? '';
      expect(text).toMatch(/10 years/);
      expect(text).toMatch(/5 years after the business relationship ends/);
      expect(text).toMatch(/30 days/);
      expect(text).toMatch(/about 7 years/);
      cleanup();
    }
  });
});

describe.each(['/documentation', '/tutorials'])('%s', (path) => {
  it('says what verified organizations get and links to registration', async () => {
    const { main } = await renderPage(path);
    expect(main.getByRole('heading', { name: 'What verified organizations get' })).toBeDefined();
    expect(main.getByRole('link', { name: 'Register your organization' }).getAttribute('href')).toBe(
      '/register',
    );
  });
});

describe('not found', () => {
  it('is a real 404 page with a link home, kept out of search', async () => {
    const { main } = await renderPage('/no/such/page');
    expect(main.getByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
    expect(main.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
  });
});
