import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { apiRoutes } from '#contracts/api.ts';
import { apiLocales } from '#contracts/locale.ts';
import { germanMessage, hasGermanMessage, localizeMessage } from '#contracts/messages-de.ts';
import { personaWebhookEvent } from '#contracts/persona-webhook.ts';
import {
  errorMessages,
  fieldMessages,
  type MessageTemplateName,
  messageTemplates,
  problemDetails,
  problemTitles,
} from '#contracts/problem-messages.ts';
import * as consentErrors from '#lambdas/domain/consent/errors.ts';
import * as domainErrors from '#lambdas/domain/errors.ts';
import * as kycErrors from '#lambdas/domain/kyc/errors.ts';
import * as httpErrors from '#lambdas/http/errors.ts';
import { type ProblemRow, problemTable } from '#lambdas/http/problems.ts';

// Issue 28, ADR 0089: every message a client can read in a problem (its title, its detail, each
// field's message) has its German in #contracts/messages-de.ts. The typecheck holds the literals
// of the `as const` objects to it; this holds everything else a client can receive to it: every
// `*Messages` object the contracts export, every message the route schemas carry (found by walking
// them), every row of the problem table, every error the table answers with its own message, and
// every message built from values. Each failure names the English that has no German.

/** The English among `messages` that has no German twin. */
const untranslated = (messages: Iterable<string>) =>
  [...new Set(messages)].filter((m) => !hasGermanMessage(m));

const stringsIn = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value !== null && typeof value === 'object'
      ? Object.values(value).flatMap(stringsIn)
      : [];

/** Every module of lambdas/contracts/, by file name: a new `*Messages` object is covered the day it is written. */
const contractsDirectory = fileURLToPath(new URL('../../../lambdas/contracts/', import.meta.url));
const contractModules: Record<string, Record<string, unknown>> = Object.fromEntries(
  await Promise.all(
    readdirSync(contractsDirectory)
      .filter((file) => file.endsWith('.ts'))
      .map(async (file) => [
        file,
        (await import(path.join(contractsDirectory, file))) as Record<string, unknown>,
      ]),
  ),
);

/** Every message a zod/mini schema carries (its own and its checks' `error`), with where it is. */
function schemaMessages(schema: unknown, where: string, found = new Map<string, string>(), seen = new Set()) {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return found;
  seen.add(schema);
  const read = (error: unknown) => {
    if (typeof error !== 'function') return;
    try {
      const message = error({ code: 'custom', input: undefined, path: [] });
      if (typeof message === 'string') found.set(message, where);
      else if (typeof message?.message === 'string') found.set(message.message, where);
    } catch {
      // An error function that needs a real issue: its messages are in a `*Messages` object.
    }
  };
  read(def.error);
  for (const check of (def.checks ?? []) as Array<{ _zod?: { def?: { error?: unknown } } }>) {
    read(check._zod?.def?.error);
  }
  for (const [key, child] of Object.entries((def.shape ?? {}) as Record<string, unknown>)) {
    schemaMessages(child, `${where}.${key}`, found, seen);
  }
  for (const key of [
    'innerType',
    'element',
    'in',
    'out',
    'left',
    'right',
    'keyType',
    'valueType',
    'catchall',
  ]) {
    schemaMessages(def[key], where, found, seen);
  }
  for (const option of [...((def.options ?? []) as unknown[]), ...((def.items ?? []) as unknown[])]) {
    schemaMessages(option, where, found, seen);
  }
  return found;
}

/** Every problem row's own texts. */
const rows = Object.entries(problemTable) as Array<[string, ProblemRow]>;

/**
 * One of each error the problem table answers with (the row's `detail` replaces the message of
 * the 5xx ones), with realistic values. A class the table names but this list does not fails below.
 */
const errors: Error[] = [
  new httpErrors.InvalidRequestError(errorMessages.invalidFields),
  new httpErrors.InvalidRequestError(errorMessages.invalidJson),
  new httpErrors.InvalidRequestError(errorMessages.notAnObject),
  new httpErrors.InvalidRequestError(errorMessages.invalidQuery),
  new httpErrors.InvalidRequestError(errorMessages.invalidEventFields),
  new httpErrors.UnauthorizedError(),
  new httpErrors.InvalidSignatureError(errorMessages.invalidSignature),
  new httpErrors.OriginNotVerifiedError(),
  new httpErrors.AdminRoleRequiredError(),
  new httpErrors.PayloadTooLargeError(65_536),
  new httpErrors.PayloadTooLargeError(2_097_152),
  new httpErrors.UnsupportedMediaTypeError(),
  new domainErrors.NotOwnAccountError(),
  new domainErrors.OrganizationMismatchError(),
  new domainErrors.OrganizationRoleRequiredError(),
  new domainErrors.OrganizationNotFoundError(),
  new domainErrors.EmailNotVerifiedError(),
  new domainErrors.OrganizationMembershipEndedError(),
  new domainErrors.OrganizationApprovalRequiredError(),
  new domainErrors.OrganizationApprovalRequiredError(errorMessages.approvalRequiredForService),
  new domainErrors.ServiceActionNotOfferedError(),
  new domainErrors.AlreadyMemberError(),
  new domainErrors.AlreadyMemberError(errorMessages.memberOfAnotherOrganization),
  new domainErrors.InvitationPendingError(),
  new domainErrors.InvitationNotFoundError(),
  new domainErrors.InvitationNotFoundError(errorMessages.noInvitationForAddress),
  new domainErrors.MemberNotFoundError(),
  new domainErrors.LastOrganizationAdminError(),
  new domainErrors.LastOrganizationAdminError(errorMessages.cannotRemoveYourself),
  new domainErrors.AccountNotFoundError(),
  new domainErrors.RateLimitedError('consent', 59, messageTemplates.tooManyRequests(59, 'seconds')),
  new domainErrors.RateLimitedError('consent', 600, messageTemplates.tooManyRequests(10, 'minutes')),
  new domainErrors.RateLimitedError('consent', 7200, messageTemplates.tooManyRequests(2, 'hours')),
  new domainErrors.RateLimitedError('verification-email', 42, messageTemplates.verificationEmailTooSoon(42)),
  new domainErrors.RateLimitedError(
    'organization-invitation-email',
    60,
    messageTemplates.invitationsPerRecipient(3, 1, 'minutes'),
  ),
  new domainErrors.RateLimitedError(
    'organization-invitation-email',
    36_000,
    messageTemplates.invitationsPerRecipient(3, 10, 'hours'),
  ),
  new domainErrors.DeletionConfirmationInvalidError(),
  new domainErrors.DeletionRequestNotFoundError(),
  new domainErrors.DeletionNotCancellableError(),
  new kycErrors.ConsentRequiredError(),
  new kycErrors.AlreadyApprovedError(),
  new kycErrors.VerificationClosedError(),
  new kycErrors.VerificationNotSubmittedError(),
  new kycErrors.OwnVerificationError(),
  new kycErrors.SecondReviewerRequiredError(),
  new kycErrors.VerificationNotRejectedError(),
  new kycErrors.AttemptsExhaustedError(3),
  new kycErrors.VerificationNotFoundError(),
  new kycErrors.ConcurrentChangeError(),
  new consentErrors.ConsentRefusedError([]),
  new consentErrors.ConsentDocumentChangedError('2026-11-01'),
  new consentErrors.ConsentNotActiveError('identity_verification'),
];

describe('every message a client can receive has its German', () => {
  it('every string of every `*Messages` object the contracts export', () => {
    const missing: string[] = [];
    const objects: string[] = [];
    for (const [file, exports] of Object.entries(contractModules)) {
      for (const [name, value] of Object.entries(exports)) {
        if (!name.endsWith('Messages') || typeof value !== 'object' || value === null) continue;
        objects.push(name);
        missing.push(...untranslated(stringsIn(value)).map((m) => `${file} ${name}: ${m}`));
      }
    }
    expect(objects).toEqual(
      expect.arrayContaining([
        'registrationMessages',
        'consentMessages',
        'businessEmailMessages',
        'emailMessages',
        'messageFieldMessages',
        'contactMessages',
        'decisionMessages',
        'listVerificationsMessages',
        'errorMessages',
        'fieldMessages',
      ]),
    );
    expect(missing).toEqual([]);
  });

  it("every message of every route's body and query schemas (and Persona's event)", () => {
    const found = new Map<string, string>();
    for (const [id, route] of Object.entries(apiRoutes) as Array<
      [string, { body?: z.ZodMiniType; query?: z.ZodMiniType }]
    >) {
      schemaMessages(route.body, `${id} body`, found);
      schemaMessages(route.query, `${id} query`, found);
    }
    schemaMessages(personaWebhookEvent, 'ReceivePersonaWebhook body', found);
    // The walk sees the schemas' messages (a sample: the registration's own and a length's template).
    expect([...found.keys()]).toEqual(
      expect.arrayContaining(['Name must have at least 2 characters', 'Must be at most 40 characters']),
    );
    expect(
      [...found].filter(([message]) => !hasGermanMessage(message)).map(([m, where]) => `${where}: ${m}`),
    ).toEqual([]);
  });

  it('every title and detail of the problem table, and every title and detail the contracts name', () => {
    const texts = rows.flatMap(([name, row]) => [
      `${name}: ${row.title}`,
      ...(row.detail ? [`${name}: ${row.detail}`] : []),
    ]);
    expect(texts.filter((text) => !hasGermanMessage(text.slice(text.indexOf(': ') + 2)))).toEqual([]);
    expect(untranslated([...problemTitles, ...Object.values(problemDetails)])).toEqual([]);
  });

  it('every error the table answers with its own message, and every value a message is built from', () => {
    // Each class a non-5xx row names without a detail of its own is constructed above.
    const constructed = new Set(errors.map((error) => error.constructor));
    const uncovered = rows.flatMap(([name, row]) =>
      row.detail === undefined
        ? row.errors.filter((c) => !constructed.has(c)).map((c) => `${name}: ${c.name}`)
        : [],
    );
    expect(uncovered).toEqual([]);
    expect(
      errors.filter((error) => !hasGermanMessage(error.message)).map((e) => `${e.name}: ${e.message}`),
    ).toEqual([]);
    expect(untranslated([...Object.values(errorMessages), ...Object.values(fieldMessages)])).toEqual([]);
  });

  it('every template, with every unit of a wait', () => {
    const samples: { [Name in MessageTemplateName]: Array<Parameters<(typeof messageTemplates)[Name]>> } = {
      maxCharacters: [[40], [200]],
      payloadTooLarge: [[65_536]],
      internalError: [['5f0c6a1e-2b7d-4c1e-9d3a-8e6f4b2a1c0d']],
      tooManyRequests: [
        [1, 'seconds'],
        [90, 'seconds'],
        [1, 'minutes'],
        [5, 'minutes'],
        [3, 'hours'],
      ],
      verificationEmailTooSoon: [[1], [59]],
      invitationsPerRecipient: [
        [3, 45, 'minutes'],
        [3, 1, 'hours'],
      ],
      attemptsExhausted: [[3]],
      consentDocumentChanged: [['2026-11-01']],
      mustAgreeTo: [['the processing of my data']],
    };
    const missing = (Object.keys(samples) as MessageTemplateName[]).flatMap((name) =>
      (samples[name] as unknown[][]).flatMap((values) => {
        const english = (messageTemplates[name] as (...v: unknown[]) => string)(...values);
        const german = germanMessage(english);
        // The values reach the German as written; a wait's unit, in German.
        const kept = values.filter((value) => !['seconds', 'minutes', 'hours'].includes(String(value)));
        return german === english || !kept.every((value) => german.includes(String(value)))
          ? [`${name}: ${english} -> ${german}`]
          : [];
      }),
    );
    expect(missing).toEqual([]);
  });
});

describe('localizeMessage', () => {
  const everyMessage = [
    ...problemTitles,
    ...Object.values(problemDetails),
    ...Object.values(errorMessages),
    ...Object.values(fieldMessages),
    ...Object.values(contractModules).flatMap((exports) =>
      Object.entries(exports).flatMap(([name, value]) => (name.endsWith('Messages') ? stringsIn(value) : [])),
    ),
  ];

  it('answers English exactly as written', () => {
    expect(everyMessage.filter((message) => localizeMessage(message, 'en') !== message)).toEqual([]);
    expect(localizeMessage(messageTemplates.tooManyRequests(5, 'minutes'), 'en')).toBe(
      'Too many requests of this kind from your account. Please try again in 5 minutes.',
    );
  });

  it('answers German, different from the English, for every message', () => {
    expect(everyMessage.filter((message) => localizeMessage(message, 'de') === message)).toEqual([]);
  });

  it('speaks the glossary', () => {
    expect(
      germanMessage(
        'Personal email addresses (Gmail, Yahoo, etc.) are not allowed. Please use your business email.',
      ),
    ).toBe(
      'Private E-Mail-Adressen (Gmail, Yahoo usw.) sind nicht zulässig. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
    );
    expect(germanMessage('Name must have at least 2 characters')).toBe(
      'Der Name muss mindestens 2 Zeichen lang sein',
    );
    expect(germanMessage('Too Many Requests')).toBe('Zu viele Anfragen');
    expect(germanMessage('Record your identity-verification consent first')).toBe(
      'Erteilen Sie zuerst Ihre Einwilligung zur Identitätsprüfung',
    );
  });

  it('writes the values of a templated message into its German, a wait in its German unit', () => {
    expect(germanMessage(messageTemplates.tooManyRequests(1, 'minutes'))).toBe(
      'Zu viele Anfragen dieser Art von Ihrem Konto. Bitte versuchen Sie es in 1 Minute erneut.',
    );
    expect(germanMessage(messageTemplates.tooManyRequests(90, 'seconds'))).toBe(
      'Zu viele Anfragen dieser Art von Ihrem Konto. Bitte versuchen Sie es in 90 Sekunden erneut.',
    );
    expect(germanMessage(messageTemplates.invitationsPerRecipient(3, 4, 'hours'))).toBe(
      'Diese Adresse hat in den letzten 24 Stunden 3 Einladungen erhalten. Bitte versuchen Sie es in 4 Stunden erneut.',
    );
    expect(germanMessage('Must be at most 40 characters')).toBe('Darf höchstens 40 Zeichen lang sein');
    expect(germanMessage(messageTemplates.internalError('req-1'))).toBe(
      'Bei uns ist ein Fehler aufgetreten. Bitte nennen Sie diese Referenz, wenn Sie uns kontaktieren: req-1',
    );
    expect(germanMessage(messageTemplates.consentDocumentChanged('v2'))).toContain('(aktuelle Version: v2)');
  });

  it('falls back to the English for a message it does not know, and never throws', () => {
    for (const unknown of [
      'A message nobody translated.',
      '',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '\u0000',
      'Must be at most  characters',
      'Too many requests of this kind from your account. Please try again in .',
      'x'.repeat(100_000),
    ]) {
      expect(germanMessage(unknown)).toBe(unknown);
      for (const locale of apiLocales) expect(localizeMessage(unknown, locale)).toBe(unknown);
    }
    expect(hasGermanMessage('A message nobody translated.')).toBe(false);
  });
});
