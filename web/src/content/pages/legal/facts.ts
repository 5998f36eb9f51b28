import {
  contractRetentionYears,
  deletionConfirmationHours,
  deletionDeadlineDays,
  financialRecordsYears,
  kycRetentionYears,
  logRetentionDays,
} from '#contracts/retention.ts';
import { cookieConsentMonths } from '#web/content/cookie-policy-revision.ts';

// The product's policy facts, once: every legal text (German and English) quotes these numbers,
// so the texts cannot disagree with each other. (No schemas here: a legal page must not evaluate
// zod just to quote a number.) The deletion deadline and the retention periods
// are the backend's own constants, which it enforces.
export const policyFacts = {
  contractRetentionYears,
  kycRetentionYears,
  websiteLogRetentionDays: logRetentionDays,
  deletionDeadlineDays,
  /** How long a deletion request's emailed confirmation link works (the API's own constant). */
  deletionConfirmationHours,
  financialRecordsYears,
  withdrawalDays: 14,
  /** The AWS region that hosts the platform and its data. */
  awsRegion: 'eu-central-1',
  awsRegionName: 'Frankfurt am Main',
  awsRegionNameEn: 'Frankfurt, Germany',
  /** How long the cookie banner's choice is relied on before it asks again (the banner's own constant). */
  cookieConsentMonths,
} as const;
