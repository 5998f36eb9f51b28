// The exact texts a person agrees to, versioned. The consent dialog and the registration wizard
// show these; the ledger stores each record's version and the SHA-256 of the exact text, so an
// auditor can prove what was shown. Changing a text means a new version.
//
// Each document exists in each of the API's languages (issue 28): the same purpose, version and
// statement ids, its own title and texts and `locale`, so its SHA-256 differs. A record names the
// language and the hash of the text the person was shown. `consentDocuments` stays the English set.

import type { ApiLocale } from './locale.ts';

export const consentPurposes = [
  'identity_verification',
  'terms_of_service',
  'privacy_policy',
  'non_harmful_use',
] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];
/**
 * Each document's current version, in both languages (a new text means a new version). The legal
 * pages date themselves from these: they load this, not the documents' texts.
 */
const identityVerificationVersion = '2026-11-01';
const termsVersion = '2025-06-08';
const privacyVersion = '2025-06-08';
const nonHarmVersion = '2025-06-08';
export const consentVersions: Record<ConsentPurpose, string> = {
  identity_verification: identityVerificationVersion,
  terms_of_service: termsVersion,
  privacy_policy: privacyVersion,
  non_harmful_use: nonHarmVersion,
};
/** The purposes the registration wizard records consent to. */
export type RegistrationPurpose = 'terms_of_service' | 'privacy_policy' | 'non_harmful_use';
/** How a record was made: `account_page` is a withdrawal from the account page (ADR 0075). */
export type ConsentMethod = 'consent_dialog' | 'registration_wizard' | 'account_page';

export interface ConsentStatement {
  /** The key of the statement's value in a consent request and in the ledger record. */
  id: string;
  text: string;
}

export interface ConsentDocument {
  purpose: ConsentPurpose;
  version: string;
  locale: string;
  title: string;
  statements: ConsentStatement[];
}

// Each document is its own constant and each set refers to them by name (no spread, no member
// reads), so a page's bundle keeps only the documents it shows: the register page the three
// agreements in its own language, not the identity verification's or the other language's.

const identityVerificationEn: ConsentDocument = {
  purpose: 'identity_verification',
  version: identityVerificationVersion,
  locale: 'en',
  title: 'Identity verification consent',
  statements: [
    {
      id: 'identity_verification_consent',
      text:
        'I agree that my identity is verified by our verification partner Persona, using a photo of my ' +
        'government-issued ID and a selfie, to confirm that I act for my organization.',
    },
    {
      id: 'biometric_data_consent',
      text:
        'I explicitly consent to the processing of biometric data (a face comparison between my selfie and ' +
        'my ID photo) for this verification only. KYC records are kept for 5 years, then deleted.',
    },
    {
      id: 'privacy_policy_consent',
      text: 'I have read the privacy policy, which explains how my verification data is processed and my rights.',
    },
  ],
};

const termsEn: ConsentDocument = {
  purpose: 'terms_of_service',
  version: termsVersion,
  locale: 'en',
  title: 'Terms of service',
  statements: [{ id: 'termsAgreed', text: 'I agree to the terms of service.' }],
};

const privacyEn: ConsentDocument = {
  purpose: 'privacy_policy',
  version: privacyVersion,
  locale: 'en',
  title: 'Privacy policy',
  statements: [{ id: 'privacyAgreed', text: 'I agree to the privacy policy.' }],
};

const nonHarmEn: ConsentDocument = {
  purpose: 'non_harmful_use',
  version: nonHarmVersion,
  locale: 'en',
  title: 'Non-harmful use policy',
  statements: [
    {
      id: 'nonHarmAgreed',
      text: 'I agree to the non-harmful use policy: the platform is never used to create or enhance pathogens.',
    },
  ],
};

const identityVerificationDe: ConsentDocument = {
  purpose: 'identity_verification',
  version: identityVerificationVersion,
  locale: 'de',
  title: 'Einwilligung in die Identitätsprüfung',
  statements: [
    {
      id: 'identity_verification_consent',
      text:
        'Ich stimme zu, dass meine Identität von unserem Verifizierungspartner Persona anhand eines Fotos ' +
        'meines amtlichen Ausweises und eines Selfies geprüft wird, um zu bestätigen, dass ich für meine ' +
        'Organisation handle.',
    },
    {
      id: 'biometric_data_consent',
      text:
        'Ich willige ausdrücklich in die Verarbeitung biometrischer Daten (ein Abgleich meines Gesichts auf ' +
        'dem Selfie mit meinem Ausweisfoto) ausschließlich für diese Prüfung ein. KYC-Unterlagen werden ' +
        '5 Jahre aufbewahrt und dann gelöscht.',
    },
    {
      id: 'privacy_policy_consent',
      text:
        'Ich habe die Datenschutzerklärung gelesen, die erklärt, wie meine Verifizierungsdaten verarbeitet ' +
        'werden und welche Rechte ich habe.',
    },
  ],
};

const termsDe: ConsentDocument = {
  purpose: 'terms_of_service',
  version: termsVersion,
  locale: 'de',
  title: 'Allgemeine Geschäftsbedingungen',
  statements: [{ id: 'termsAgreed', text: 'Ich stimme den Allgemeinen Geschäftsbedingungen zu.' }],
};

const privacyDe: ConsentDocument = {
  purpose: 'privacy_policy',
  version: privacyVersion,
  locale: 'de',
  title: 'Datenschutzerklärung',
  statements: [{ id: 'privacyAgreed', text: 'Ich stimme der Datenschutzerklärung zu.' }],
};

const nonHarmDe: ConsentDocument = {
  purpose: 'non_harmful_use',
  version: nonHarmVersion,
  locale: 'de',
  title: 'Richtlinie zur nicht schädlichen Nutzung',
  statements: [
    {
      id: 'nonHarmAgreed',
      text:
        'Ich stimme der Richtlinie zur nicht schädlichen Nutzung zu: Die Plattform wird niemals dazu genutzt, ' +
        'Krankheitserreger zu erzeugen oder zu verstärken.',
    },
  ],
};

/** The three agreements the registration wizard records (English). */
export const registrationDocuments: Pick<Record<ConsentPurpose, ConsentDocument>, RegistrationPurpose> = {
  terms_of_service: termsEn,
  privacy_policy: privacyEn,
  non_harmful_use: nonHarmEn,
};

/** The English documents. */
export const consentDocuments: Record<ConsentPurpose, ConsentDocument> = {
  identity_verification: identityVerificationEn,
  terms_of_service: termsEn,
  privacy_policy: privacyEn,
  non_harmful_use: nonHarmEn,
};

/** The three agreements the registration wizard records (German). */
export const germanRegistrationDocuments: Pick<
  Record<ConsentPurpose, ConsentDocument>,
  RegistrationPurpose
> = {
  terms_of_service: termsDe,
  privacy_policy: privacyDe,
  non_harmful_use: nonHarmDe,
};

/**
 * The German documents: faithful to the English, the same versions. The statements are the
 * person's own words (first person), as in English.
 */
export const germanConsentDocuments: Record<ConsentPurpose, ConsentDocument> = {
  identity_verification: identityVerificationDe,
  terms_of_service: termsDe,
  privacy_policy: privacyDe,
  non_harmful_use: nonHarmDe,
};

/** Every document in every language of the API: a missing translation is a type error. */
export const localizedConsentDocuments: Record<ApiLocale, Record<ConsentPurpose, ConsentDocument>> = {
  en: consentDocuments,
  de: germanConsentDocuments,
};

/** The canonical text whose hash the ledger stores: title, version and statements, one per line. */
export function canonicalText(document: ConsentDocument): string {
  return [
    `${document.title} (${document.version}, ${document.locale})`,
    ...document.statements.map((s) => `${s.id}: ${s.text}`),
  ].join('\n');
}

/** SHA-256 (hex) of the canonical text; Web Crypto, so the browser and Lambda compute the same. */
export async function documentSha256(document: ConsentDocument): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(canonicalText(document)),
  );
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
