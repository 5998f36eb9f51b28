import type { CookieConsentRequest } from '#contracts/cookie-consent.ts';
import { cookieConsentMonths, cookiePolicyRevision } from '#web/content/cookie-policy-revision.ts';
import { storage } from '#web/lib/storage.ts';
import { consentKeys } from './keys.ts';

// What the visitor chose, in local storage under the keys the cookie policy names, and logged
// through the API as proof of consent (append-only, keyed by a random id kept in this browser).

export { consentKeys };

export interface CookieChoices {
  analytics: boolean;
  marketing: boolean;
  personalization: boolean;
}

export interface CookieConsent extends CookieChoices {
  essential: true;
}

const none: CookieChoices = { analytics: false, marketing: false, personalization: false };
export const choices = {
  all: { analytics: true, marketing: true, personalization: true } as CookieChoices,
  none,
};

/** The stored choice, or null when the visitor must be asked (none, another revision, too old). */
export function readConsent(now = new Date()): CookieConsent | null {
  const raw = storage.get(consentKeys.consent);
  if (!raw || storage.get(consentKeys.revision) !== cookiePolicyRevision) return null;
  const date = Date.parse(storage.get(consentKeys.date) ?? '');
  if (Number.isNaN(date)) return null;
  const expires = new Date(date);
  expires.setMonth(expires.getMonth() + cookieConsentMonths);
  if (now >= expires) return null;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (
      value.essential !== true ||
      typeof value.analytics !== 'boolean' ||
      typeof value.marketing !== 'boolean' ||
      typeof value.personalization !== 'boolean'
    ) {
      return null;
    }
    return {
      essential: true,
      analytics: value.analytics,
      marketing: value.marketing,
      personalization: value.personalization,
    };
  } catch {
    return null;
  }
}

function consentId(): string {
  const existing = storage.get(consentKeys.id);
  if (existing && /^[0-9a-f-]{36}$/i.test(existing)) return existing;
  const id = crypto.randomUUID();
  storage.set(consentKeys.id, id);
  return id;
}

/** Stores the choice (it applies at once, even offline) and logs it; resolves once logged. */
export async function saveConsent(chosen: CookieChoices, now = new Date()): Promise<CookieConsent> {
  const consent: CookieConsent = {
    essential: true,
    analytics: chosen.analytics,
    marketing: chosen.marketing,
    personalization: chosen.personalization,
  };
  storage.set(consentKeys.consent, JSON.stringify(consent));
  storage.set(consentKeys.date, now.toISOString());
  storage.set(consentKeys.revision, cookiePolicyRevision);
  const body: CookieConsentRequest = {
    consentId: consentId(),
    analytics: consent.analytics,
    marketing: consent.marketing,
    personalization: consent.personalization,
    revision: cookiePolicyRevision,
  };
  // The API client (and zod) load with the first choice, not with every page.
  await Promise.all([import('#web/lib/public-api.ts'), import('#contracts/common.ts')])
    .then(([{ api }, { successResponse }]) =>
      api.call('CreateCookieConsent', body, { response: successResponse }),
    )
    .catch((error: unknown) => {
      // The choice is kept and honoured; only the proof is missing, which the next choice repairs.
      console.warn('cookie consent could not be logged', error);
    });
  return consent;
}
