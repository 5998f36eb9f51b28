// The exact texts a person agrees to, versioned. The consent dialog and the registration wizard
// show these; the ledger stores each record's version and the SHA-256 of the exact text, so an
// auditor can prove what was shown. Changing a text means a new version.

export const consentPurposes = [
  'identity_verification',
  'terms_of_service',
  'privacy_policy',
  'non_harmful_use',
] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];
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

export const consentDocuments: Record<ConsentPurpose, ConsentDocument> = {
  identity_verification: {
    purpose: 'identity_verification',
    version: '2026-11-01',
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
  },
  terms_of_service: {
    purpose: 'terms_of_service',
    version: '2025-06-08',
    locale: 'en',
    title: 'Terms of service',
    statements: [{ id: 'termsAgreed', text: 'I agree to the terms of service.' }],
  },
  privacy_policy: {
    purpose: 'privacy_policy',
    version: '2025-06-08',
    locale: 'en',
    title: 'Privacy policy',
    statements: [{ id: 'privacyAgreed', text: 'I agree to the privacy policy.' }],
  },
  non_harmful_use: {
    purpose: 'non_harmful_use',
    version: '2025-06-08',
    locale: 'en',
    title: 'Non-harmful use policy',
    statements: [
      {
        id: 'nonHarmAgreed',
        text: 'I agree to the non-harmful use policy: the platform is never used to create or enhance pathogens.',
      },
    ],
  },
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
