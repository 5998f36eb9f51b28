// How long each kind of data is kept, from when, and on what legal ground: the one table (ADR 0077).
// The privacy policy's retention list is generated from it (web/src/content/pages/legal/retention.ts),
// the other legal texts quote its numbers (web/src/content/pages/legal/facts.ts), and the backend
// enforces them: the erasure's retention dates and TTLs, the submissions' TTLs, the log retention.
// Change a period here and all of them follow; a test fails if the policy text disagrees.
//
// The numbers are plain constants first so that a page that needs one number (the deletion deadline)
// does not bundle the table's texts: only the table's readers import `retentionTable`.

/** Contract records and consent proofs, after the relationship ends (§ 257 HGB, § 147 AO). */
export const contractRetentionYears = 10;

/** KYC outcome and history, after the relationship ends (§ 8 Abs. 4 GwG, AMLD Art. 40). */
export const kycRetentionYears = 5;

/** Each entry of the admin audit trail (ADR 0078), after it was written. */
export const auditTrailRetentionYears = 5;

/**
 * Invoices and payment receipts, about (§ 257 HGB, § 147 AO: 6, 8 or 10 years by the kind of
 * record). Kept by accounting, not by this product; the figure is the policy's as it stands.
 */
export const financialRecordsYears = 7;

/** The platform's logs (CloudWatch, the CDN's access logs): the stage default, and the most a stage may set. */
export const logRetentionDays = 30;

/** The proof of a cookie choice: the longest a choice is relied on before the banner asks again. */
export const cookieConsentRetentionMonths = 13;

/** An answered deletion request, after it was answered: the proof that it was (limitation period). */
export const deletionRequestRetentionYears = 3;

/** 30 days after confirmation: the answer deadline of GDPR Art. 12(3). */
export const deletionDeadlineDays = 30;

/** How long the emailed link that confirms a data-deletion request works. */
export const deletionConfirmationHours = 24;

export type RetentionUnit = 'days' | 'months' | 'years';

/** A text in the policy's two languages. */
export interface Bilingual {
  de: string;
  en: string;
}

export interface RetentionRule {
  /** What is kept, as the privacy policy names it. */
  what: Bilingual;
  /** How long; null: no fixed period (`until` says when it ends). */
  /** `approximate`: the period varies by the kind of record; the policy says "about". */
  period: { amount: number; unit: RetentionUnit; approximate?: true } | null;
  /** From when the period counts, as the policy says it (after the number); or, without a period, until when. */
  counted: Bilingual;
  /** The legal ground for keeping it (that long), as the policy cites it. */
  basis: Bilingual;
  /** Where the code enforces it, for the reader of this table. */
  enforcedBy: string;
  /** A sentence the policy adds after the period. */
  note?: Bilingual;
  /** Not built yet (another issue item builds it): the policy leaves the row out until then. */
  planned?: true;
}

/** Every kind of data the product keeps, in the order the privacy policy lists them. */
export const retentionTable = {
  consentRecords: {
    what: { de: 'Vertragsdaten und Einwilligungsnachweise', en: 'Contract records and consent proofs' },
    period: { amount: contractRetentionYears, unit: 'years' },
    counted: { de: 'nach Ende der Geschäftsbeziehung', en: 'after the relationship ends' },
    basis: { de: 'Art. 7 Abs. 1 DSGVO, § 257 HGB, § 147 AO', en: 'GDPR Art. 7(1), § 257 HGB, § 147 AO' },
    enforcedBy: 'erasure: expiresAt on the consent ledger (retentionDates, DynamoDbRetention)',
  },
  kycEvidence: {
    what: {
      de: 'KYC-Daten (Ergebnis und Verlauf der Identitätsprüfung)',
      en: 'KYC records (outcome and history of the identity verification)',
    },
    period: { amount: kycRetentionYears, unit: 'years' },
    counted: { de: 'nach Ende der Geschäftsbeziehung', en: 'after the relationship ends' },
    basis: {
      de: '§ 8 Abs. 4 GwG, Art. 40 der Richtlinie (EU) 2015/849',
      en: '§ 8(4) GwG, Art. 40 of Directive (EU) 2015/849',
    },
    note: {
      de: 'Ausweisbilder und Selfie jedes Prüfvorgangs lassen wir bei Persona spätestens mit Ihrem Löschantrag schwärzen.',
      en: 'We have Persona redact the ID images and selfie of every verification at the latest when you ask for erasure.',
    },
    enforcedBy: 'erasure: every inquiry redacted at Persona, expiresAt on the KYC items (DynamoDbRetention)',
  },
  auditTrail: {
    what: {
      de: 'Protokoll der Prüfentscheidungen unseres Teams',
      en: "Audit trail of our reviewers' actions",
    },
    period: { amount: auditTrailRetentionYears, unit: 'years' },
    counted: { de: 'nach dem Eintrag', en: 'after each entry' },
    basis: {
      de: '§ 8 Abs. 4 GwG, Art. 40 der Richtlinie (EU) 2015/849, Art. 5 Abs. 2 DSGVO',
      en: '§ 8(4) GwG, Art. 40 of Directive (EU) 2015/849, GDPR Art. 5(2)',
    },
    enforcedBy:
      'the admin audit trail (ADR 0078): each entry carries expiresAt from this row (auditEntryExpiry)',
  },
  financialRecords: {
    what: {
      de: 'Finanzunterlagen wie Rechnungen und Zahlungsbelege',
      en: 'Financial records such as invoices and payment receipts',
    },
    period: { amount: financialRecordsYears, unit: 'years', approximate: true },
    counted: { de: 'je nach Art des Belegs', en: 'depending on the kind of record' },
    basis: { de: '§ 257 HGB, § 147 AO', en: '§ 257 HGB, § 147 AO' },
    enforcedBy: 'accounting, outside this product (it keeps no invoices)',
  },
  logs: {
    what: { de: 'Website- und Server-Logs', en: 'Website and server logs' },
    period: { amount: logRetentionDays, unit: 'days' },
    counted: { de: 'ab ihrer Entstehung', en: 'after they are written' },
    basis: { de: 'Art. 6 Abs. 1 lit. f DSGVO', en: 'GDPR Art. 6(1)(f)' },
    enforcedBy: 'infra: logRetentionDays (stage default and maximum), the CDN log bucket lifecycle',
  },
  cookieChoices: {
    what: { de: 'Ihre Cookie-Auswahl', en: 'Your cookie choice' },
    period: { amount: cookieConsentRetentionMonths, unit: 'months' },
    counted: { de: 'ab Ihrer Wahl', en: 'after you choose' },
    basis: { de: 'Art. 7 Abs. 1 DSGVO, § 25 TDDDG', en: 'GDPR Art. 7(1), § 25 TDDDG' },
    note: { de: 'Danach fragen wir erneut.', en: 'Then we ask again.' },
    enforcedBy: 'submissions TTL (cookieConsentExpiry); the banner asks again (cookieConsentMonths)',
  },
  deletionRequests: {
    what: { de: 'Ihr Löschantrag und unser Bericht dazu', en: 'Your erasure request and our report on it' },
    period: { amount: deletionRequestRetentionYears, unit: 'years' },
    counted: { de: 'nach seiner Erledigung', en: 'after it is answered' },
    basis: { de: 'Art. 5 Abs. 2 DSGVO, § 195 BGB', en: 'GDPR Art. 5(2), § 195 BGB' },
    enforcedBy: 'erasure: expiresAt on the completed request (DynamoDbSubmissionStore.complete)',
  },
  submissions: {
    what: {
      de: 'Registrierung, Warteliste, Kontakt- und Investorenanfragen',
      en: 'Registration, waitlist, contact and investor inquiries',
    },
    period: null,
    counted: {
      de: 'bis zum Widerruf bzw. bis die Anfrage erledigt ist, spätestens bis zu Ihrem Löschantrag',
      en: 'until you withdraw or the inquiry is settled, at the latest until you ask for erasure',
    },
    basis: { de: 'Art. 6 Abs. 1 lit. a, b und f DSGVO', en: 'GDPR Art. 6(1)(a), (b) and (f)' },
    enforcedBy: 'erasure: deleted (planErasure)',
  },
} as const satisfies Record<string, RetentionRule>;

export type RetentionKind = keyof typeof retentionTable;

/** `amount` `unit` after `from` (calendar arithmetic in UTC; 29 February + 1 year is 1 March). */
export function retainedUntil(from: Date, period: { amount: number; unit: RetentionUnit }): Date {
  const until = new Date(from.getTime());
  if (period.unit === 'years') until.setUTCFullYear(until.getUTCFullYear() + period.amount);
  else if (period.unit === 'months') until.setUTCMonth(until.getUTCMonth() + period.amount);
  else until.setUTCDate(until.getUTCDate() + period.amount);
  return until;
}
