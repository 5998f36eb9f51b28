import { describe, expect, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { germanLiterals } from '#contracts/messages-de.ts';
import { registrationMessages } from '#contracts/registration.ts';
import { dashboardsCopy } from '#web/content/dashboards.ts';
import { dashboardsCopy as dashboardsDe } from '#web/content/de/dashboards.ts';
import { errors as errorsDe } from '#web/content/de/errors.ts';
import { kycCopy as kycDe } from '#web/content/de/kyc.ts';
import { sessionMessages as sessionDe } from '#web/content/de/session.ts';
import { signInCopy as signInDe } from '#web/content/de/sign-in.ts';
import { site as siteDe } from '#web/content/de/site.ts';
import { errors } from '#web/content/errors.ts';
import { kycCopy } from '#web/content/kyc.ts';
import { sessionMessages } from '#web/content/session.ts';
import { signInCopy } from '#web/content/sign-in.ts';
import { site } from '#web/content/site.ts';

// The seed's messages, word for word in English and in the German the German build shows
// (issue 28, ADR 0089). The journeys look for these on screen; a change here is a change of the
// product's wording in that language, made on purpose.

describe("the seed's messages in both languages", () => {
  it.each([
    [
      '60 minutes ended an active session',
      sessionMessages.maximumDuration,
      sessionDe.maximumDuration,
      'Maximum session duration (60 minutes) exceeded',
      'Maximale Sitzungsdauer (60 Minuten) überschritten',
    ],
    [
      'coming back to an expired session',
      sessionMessages.maximumDurationReached,
      sessionDe.maximumDurationReached,
      'Maximum session duration (60 minutes) reached',
      'Maximale Sitzungsdauer (60 Minuten) erreicht',
    ],
    [
      '5 minutes without activity',
      sessionMessages.inactivity,
      sessionDe.inactivity,
      'Logged out due to 5 minutes of inactivity',
      'Abgemeldet nach 5 Minuten Inaktivität',
    ],
    [
      'a hidden tab',
      sessionMessages.hiddenTab,
      sessionDe.hiddenTab,
      'Logged out due to tab being inactive for 5 minutes',
      'Abgemeldet, weil der Tab 5 Minuten lang inaktiv war',
    ],
    [
      'the session ended',
      sessionMessages.expired,
      sessionDe.expired,
      'Session expired. Please log in again for security.',
      'Sitzung abgelaufen. Bitte melden Sie sich aus Sicherheitsgründen erneut an.',
    ],
    [
      'the warning before the maximum',
      sessionMessages.expiringSoon,
      sessionDe.expiringSoon,
      'Session expiring soon',
      'Sitzung läuft bald ab',
    ],
    [
      'the router error screen',
      errors.unexpected.title,
      errorsDe.unexpected.title,
      'Unexpected Application Error!',
      'Unerwarteter Anwendungsfehler!',
    ],
    [
      'the welcome after the first sign-in',
      signInCopy.registrationSuccess.title,
      signInDe.registrationSuccess.title,
      'Registration Successful',
      'Registrierung erfolgreich',
    ],
    [
      'the consent button',
      kycCopy.start.provideConsent,
      kycDe.start.provideConsent,
      'Provide Verification Consent',
      'Einwilligung zur Prüfung erteilen',
    ],
    [
      'the consent toast',
      kycCopy.consent.recorded,
      kycDe.consent.recorded,
      'Consent recorded successfully! You can now verify your identity.',
      'Einwilligung erfolgreich gespeichert! Sie können jetzt Ihre Identität bestätigen.',
    ],
    [
      'the commercial dashboard',
      dashboardsCopy.commercial.title,
      dashboardsDe.commercial.title,
      'Commercial Space Operations',
      'Kommerzieller Raumfahrtbetrieb',
    ],
    [
      "the visitors' call to action",
      site.nav.requestAccess,
      siteDe.nav.requestAccess,
      'Request Beta Access',
      'Beta-Zugang anfordern',
    ],
    ['signing in', site.nav.logIn, siteDe.nav.logIn, 'Log In', 'Anmelden'],
    ['signing out', site.nav.logOut, siteDe.nav.logOut, 'Log Out', 'Abmelden'],
    // Validation: the German build's forms and the German API answer both say these.
    [
      'a personal email address',
      businessEmailMessages.personal,
      germanLiterals[businessEmailMessages.personal],
      'Personal email addresses (Gmail, Yahoo, etc.) are not allowed. Please use your business email.',
      'Private E-Mail-Adressen (Gmail, Yahoo usw.) sind nicht zulässig. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
    ],
    [
      'an invalid email address',
      businessEmailMessages.invalid,
      germanLiterals[businessEmailMessages.invalid],
      'Please enter a valid email address',
      'Bitte geben Sie eine gültige E-Mail-Adresse ein',
    ],
    [
      'a short name',
      registrationMessages.responsibleName,
      germanLiterals[registrationMessages.responsibleName],
      'Name must have at least 2 characters',
      'Der Name muss mindestens 2 Zeichen lang sein',
    ],
    [
      'the terms not agreed',
      registrationMessages.termsAgreed,
      germanLiterals[registrationMessages.termsAgreed],
      'You must agree to the terms of service',
      'Sie müssen den Allgemeinen Geschäftsbedingungen zustimmen',
    ],
  ])('%s', (_what, english, german, expectedEnglish, expectedGerman) => {
    expect(english).toBe(expectedEnglish);
    expect(german).toBe(expectedGerman);
  });
});
