import { type DataExport, dataExportFormat } from '#contracts/data-export.ts';
import { maxVerificationAttempts } from '#contracts/kyc-reasons.ts';
import type { Caller } from '../caller.ts';
import { toHistoryRecord } from '../consent/list-my-consents.ts';
import { AccountNotFoundError } from '../errors.ts';
import type { HistoryEntry } from '../kyc/ports.ts';
import type { Clock, ConsentLedger, KycStateReader, RateLimiter, UserProfiles } from '../ports.ts';
import type { RegistrationRecord } from '../registration/ports.ts';
import { withinSignedInLimit } from '../signed-in-limits.ts';
import { normaliseEmail } from '../submissions/normalise.ts';
import type { SubmissionsOfAddress } from './ports.ts';

// GET /api/me/export (GDPR Art. 15 and 20; ADR 0076): the caller's own data, from the product's
// stores only, found by the token's `sub` and the account's own address, never by anything sent.

/** More than a person's verification ever writes (a few changes per attempt, three attempts). */
export const exportHistoryLimit = 200;

/** Kept out of a submission's fields: the store's keys and its own bookkeeping, not the person's data. */
const internalFields = new Set([
  'pk',
  'sk',
  'kind',
  'createdAt',
  'confirmationTokenHash',
  'expiresAt',
  'userIds',
  'planned',
  'deleted',
  'kept',
]);

/** The items shown elsewhere in the document (profile, registration), under their own headings. */
const shownElsewhere = ['PROFILE#', 'REGISTRATION#'];

export function exportMyData(deps: {
  profiles: Pick<UserProfiles, 'get'>;
  registrations: { getRegistration(userId: string): Promise<RegistrationRecord | undefined> };
  ledger: Pick<ConsentLedger, 'listBySubject'>;
  kyc: KycStateReader;
  kycHistory: {
    listHistories(userIds: readonly string[], limitPerUser: number): Promise<Map<string, HistoryEntry[]>>;
  };
  submissions: SubmissionsOfAddress;
  limiter: RateLimiter;
  clock: Clock;
}) {
  return async (caller: Caller): Promise<DataExport> => {
    const lookup = await deps.profiles.get(caller.userId);
    if (lookup?.kind === 'erased') throw new AccountNotFoundError();
    return withinSignedInLimit(deps.limiter, 'data-export', caller.userId, async () => {
      const profile = lookup?.profile;
      const email = profile?.email || caller.claims.email || '';
      const [registration, records, kyc, histories, items] = await Promise.all([
        deps.registrations.getRegistration(caller.userId),
        deps.ledger.listBySubject(caller.userId),
        deps.kyc.getState(caller.userId),
        deps.kycHistory.listHistories([caller.userId], exportHistoryLimit),
        email ? deps.submissions.itemsByEmail(normaliseEmail(email)) : Promise.resolve([]),
      ]);
      const organizationName = profile?.organizationName ?? registration?.organizationName ?? null;
      return {
        format: dataExportFormat,
        version: 1,
        generatedAt: deps.clock.now().toISOString(),
        profile: {
          userId: caller.userId,
          email,
          emailVerified: caller.emailVerified,
          name: profile?.name || caller.claims.name || '',
          role: caller.role,
        },
        organization:
          organizationName === null
            ? null
            : {
                name: organizationName,
                type: profile?.organizationType ?? registration?.organizationType ?? null,
                url: registration?.organizationUrl ?? null,
              },
        registration: registration
          ? {
              registeredAt: registration.createdAt,
              email: registration.email,
              responsibleName: registration.responsibleName,
              responsibleTitle: registration.responsibleTitle,
              responsiblePhone: registration.responsiblePhone,
              organizationName: registration.organizationName,
              organizationUrl: registration.organizationUrl,
              organizationType: registration.organizationType,
            }
          : null,
        // The partition is the `sub`; the issuer check keeps another tenant's identical `sub` out.
        consents: records.filter((record) => record.issuer === caller.issuer).map(toHistoryRecord),
        kyc: {
          status: kyc?.status ?? 'not_started',
          updatedAt: kyc?.updatedAt ?? null,
          attempts: Math.min(kyc?.attempt ?? 0, maxVerificationAttempts),
          // The reviewer's id and free-text note name another person: the person gets the code.
          // A four-eyes proposal changed nothing about the person yet: the decision it becomes is
          // listed once confirmed (ADR 0080).
          history: (histories.get(caller.userId) ?? [])
            .filter((entry) => entry.action !== 'decision_proposed')
            .map((entry) => ({
              from: entry.from,
              to: entry.to,
              by: entry.by,
              action: entry.action as Exclude<typeof entry.action, 'decision_proposed'>,
              reasonCode: entry.reasonCode,
              at: entry.at,
            })),
        },
        submissions: items
          .filter((item) => !shownElsewhere.some((prefix) => String(item.pk).startsWith(prefix)))
          .map((item) => ({
            kind: typeof item.kind === 'string' ? item.kind : 'unknown',
            createdAt:
              typeof item.createdAt === 'string'
                ? item.createdAt
                : typeof item.receivedAt === 'string'
                  ? item.receivedAt
                  : null,
            fields: Object.fromEntries(Object.entries(item).filter(([name]) => !internalFields.has(name))),
          })),
      };
    });
  };
}
