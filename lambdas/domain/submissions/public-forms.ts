import type { ContactRequest } from '#contracts/contact.ts';
import type { CookieConsentRequest } from '#contracts/cookie-consent.ts';
import type { InvestorInquiryRequest } from '#contracts/investor-inquiry.ts';
import { retainedUntil, retentionTable } from '#contracts/retention.ts';
import { minimiseIp } from '#lambdas/domain/minimise.ts';
import type { Clock } from '../ports.ts';
import { normaliseEmail } from './normalise.ts';
import type { IdGenerator, SubmissionStore } from './ports.ts';

type MessageKind = 'investor_inquiry' | 'contact_message';

/** Investor inquiries and contact messages are stored alike; only their kind (and key) differs. */
function storeMessage<Request extends InvestorInquiryRequest | ContactRequest>(kind: MessageKind) {
  return (deps: { store: SubmissionStore; clock: Clock; newId: IdGenerator }) =>
    async (request: Request): Promise<{ id: string }> => {
      const id = deps.newId();
      await deps.store.addOnce({
        kind,
        id,
        name: request.name,
        email: normaliseEmail(request.email),
        organization: request.organization ?? '',
        message: request.message,
        createdAt: deps.clock.now().toISOString(),
      });
      return { id };
    };
}

export const submitInvestorInquiry = storeMessage<InvestorInquiryRequest>('investor_inquiry');
export const sendContactMessage = storeMessage<ContactRequest>('contact_message');

/**
 * When the proof of a cookie choice goes: the retention table's period (13 months, the longest a
 * consent choice may be relied on before the banner must ask again; CNIL guideline on cookies,
 * followed across the EU). After that the record proves nothing anyone needs, so the table's TTL
 * removes it.
 */
export function cookieConsentExpiry(recordedAt: Date): number {
  return Math.floor(retainedUntil(recordedAt, retentionTable.cookieChoices.period).getTime() / 1000);
}

export function recordCookieConsent(deps: { store: SubmissionStore; clock: Clock }) {
  return async (
    request: CookieConsentRequest,
    context: { sourceIp: string },
  ): Promise<{ stored: boolean }> => {
    const now = deps.clock.now();
    // The banner may resend the same choice (retries, several tabs): the first one is the proof.
    const outcome = await deps.store.addOnce({
      kind: 'cookie_consent',
      consentId: request.consentId.toLowerCase(),
      revision: request.revision,
      analytics: request.analytics,
      marketing: request.marketing,
      personalization: request.personalization,
      ipAddress: minimiseIp(context.sourceIp),
      createdAt: now.toISOString(),
      expiresAt: cookieConsentExpiry(now),
    });
    return { stored: outcome === 'added' };
  };
}
