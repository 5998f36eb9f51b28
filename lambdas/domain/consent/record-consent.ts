import type { ConsentRequest } from '#contracts/consent.ts';
import { consentMessages } from '#contracts/consent.ts';
import {
  type ConsentDocument,
  type ConsentPurpose,
  documentSha256,
  localizedConsentDocuments,
} from '#contracts/consent-documents.ts';
import { type ApiLocale, defaultApiLocale, isApiLocale } from '#contracts/locale.ts';
import type { FieldError } from '#contracts/problem.ts';
import { type Caller, requireSelf, requireVerifiedEmail } from '#lambdas/domain/caller.ts';
import { minimiseIp, minimiseUserAgent } from '#lambdas/domain/minimise.ts';
import type { ConsentLedger, ConsentRecord, RateLimiter } from '#lambdas/domain/ports.ts';
import { withinSignedInLimit } from '#lambdas/domain/signed-in-limits.ts';
import { ConsentDocumentChangedError, ConsentRefusedError } from './errors.ts';

/** Where a request came from, as the API sees it; minimised here before anything is stored. */
export interface RequestOrigin {
  requestId: string;
  userAgent: string;
  ipAddress: string;
}

/**
 * A consent request whose statement values may be anything a client sent. The HTTP contract
 * already refuses `false`; the use case checks again so no caller of it can record a refusal
 * as consent.
 */
export type ConsentDecision = Omit<
  ConsentRequest,
  'identity_verification_consent' | 'biometric_data_consent' | 'privacy_policy_consent'
> &
  Record<'identity_verification_consent' | 'biometric_data_consent' | 'privacy_policy_consent', boolean>;

/**
 * POST /api/consents: records the caller's identity-verification consent. Refused, with nothing
 * appended, when the body names another user (`NotOwnAccountError`), the caller's email is not
 * verified (`EmailNotVerifiedError`), a statement is refused (`ConsentRefusedError`) or the person
 * saw a version of the text that is no longer current (`ConsentDocumentChangedError`), or the
 * caller recorded their day's consents already (`RateLimitedError`, ADR 0072).
 */
export function recordConsent(deps: { ledger: ConsentLedger; limiter: RateLimiter }) {
  return async (input: {
    caller: Caller;
    decision: ConsentDecision;
    origin: RequestOrigin;
  }): Promise<ConsentRecord> => {
    const { caller, decision, origin } = input;
    requireSelf(caller, decision.user_id);
    requireVerifiedEmail(caller);
    // The document in the language the person was shown (issue 28): its own text, so its own hash.
    const locale: ApiLocale = decision.locale ?? defaultApiLocale;
    const document = localizedConsentDocuments[locale][decision.consent_type];
    const statements = statementValues(document, decision as unknown as Record<string, unknown>);
    const refused: FieldError[] = document.statements
      .filter((statement) => statements[statement.id] !== true)
      .map((statement) => ({
        field: statement.id,
        message:
          consentMessages[statement.id as keyof typeof consentMessages] ??
          `You must agree to: ${statement.text}`,
      }));
    if (refused.length > 0) {
      throw new ConsentRefusedError(refused);
    }
    if (decision.document_version !== undefined && decision.document_version !== document.version) {
      throw new ConsentDocumentChangedError(document.version);
    }
    // A contended chain throws ConsentLedgerContentionError (503 with Retry-After): nothing appended.
    const documentSha = await documentSha256(document);
    return withinSignedInLimit(deps.limiter, 'consent', caller.userId, () =>
      deps.ledger.append(
        {
          subjectId: caller.userId,
          issuer: caller.issuer,
          purpose: document.purpose,
          action: 'granted',
          statements,
          documentVersion: document.version,
          documentSha256: documentSha,
          locale: document.locale,
          method: 'consent_dialog',
          requestId: origin.requestId,
          userAgent: minimiseUserAgent(origin.userAgent),
          ipAddress: minimiseIp(origin.ipAddress),
        },
        // The language the body names is the person's latest choice, which later emails follow
        // (issue 28); a client that names none states no choice.
        decision.locale === undefined ? {} : { languageChoice: decision.locale },
      ),
    );
  };
}

/** Each of the document's statements with the value given (anything but `true` counts as not given). */
function statementValues(
  document: ConsentDocument,
  values: Record<string, unknown>,
): Record<string, boolean> {
  return Object.fromEntries(
    document.statements.map((statement) => [statement.id, values[statement.id] === true]),
  );
}

export const registrationAgreementPurposes = [
  'terms_of_service',
  'privacy_policy',
  'non_harmful_use',
] as const satisfies readonly ConsentPurpose[];

export interface RegistrationAgreementsInput {
  /** The new user's id (Auth0 `user_id`, the future token `sub`). */
  subjectId: string;
  /** The identity provider's issuer, as in its tokens (`https://<tenant domain>/`). */
  issuer: string;
  locale: string;
  requestId: string;
  /** As received (raw): minimised here. */
  userAgent: string;
  /** As received (raw): minimised here. */
  ipAddress: string;
}

/**
 * Records the three agreements of the registration wizard (terms of service, privacy policy,
 * non-harmful use), one ledger record each, in that order, with method `registration_wizard` and
 * every statement of the current documents as agreed. Call it only after the request was
 * validated (the registration contract requires all three to be `true`).
 */
export async function recordRegistrationAgreements(
  deps: { ledger: ConsentLedger },
  input: RegistrationAgreementsInput,
): Promise<ConsentRecord[]> {
  const records: ConsentRecord[] = [];
  // One at a time: each append chains onto the one before, so parallel appends would only race.
  // The documents in the registration's language: the wizard showed the person those (issue 28).
  const locale: ApiLocale = isApiLocale(input.locale) ? input.locale : defaultApiLocale;
  for (const purpose of registrationAgreementPurposes) {
    const document = localizedConsentDocuments[locale][purpose];
    records.push(
      await deps.ledger.append({
        subjectId: input.subjectId,
        issuer: input.issuer,
        purpose,
        action: 'granted',
        statements: Object.fromEntries(document.statements.map((statement) => [statement.id, true])),
        documentVersion: document.version,
        documentSha256: await documentSha256(document),
        locale: document.locale,
        method: 'registration_wizard',
        requestId: input.requestId,
        userAgent: minimiseUserAgent(input.userAgent),
        ipAddress: minimiseIp(input.ipAddress),
      }),
    );
  }
  return records;
}
