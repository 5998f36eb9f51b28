import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '#contracts/api.ts';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { problemTypes } from '#contracts/problem.ts';
import { clearSecretCache } from '#lambdas/adapters/secrets.ts';
import { ConsentRefusedError } from '#lambdas/domain/consent/errors.ts';
import { EmailNotVerifiedError, RateLimitedError, StorageUnavailableError } from '#lambdas/domain/errors.ts';
import { spendSignedInWrite } from '#lambdas/domain/signed-in-limits.ts';
import { httpHandler } from '#lambdas/http/http-handler.ts';
import { localizedProblem, problemFor } from '#lambdas/http/problems.ts';
import { httpApiEvent, lambdaContext, mockOriginSecret } from '#tests/fixtures/events/http-api-event.ts';

// Issue 28, ADR 0089: a problem answers in the language the request's `Accept-Language`
// negotiates: its title, detail and field messages, with `Content-Language`. English stays as it
// was; anything without German (or a failure while translating) stays English.

const parse = (body: string | undefined) => JSON.parse(body ?? 'null');
const secrets = mockClient(SecretsManagerClient);
beforeEach(() => {
  secrets.reset();
  clearSecretCache();
  mockOriginSecret(secrets);
});

describe('problemFor', () => {
  it('answers a domain refusal in German for `de`, with the same type, status and headers', () => {
    const english = problemFor(new EmailNotVerifiedError(), { requestId: 'r' });
    const german = problemFor(new EmailNotVerifiedError(), { requestId: 'r', locale: 'de' });
    expect(english.language).toBe('en');
    expect(english.problem).toEqual({
      type: problemTypes.emailNotVerified,
      title: 'Email Not Verified',
      status: 403,
      detail: 'Verify your email address first, then try again.',
    });
    expect(german.language).toBe('de');
    expect(german.problem).toEqual({
      type: problemTypes.emailNotVerified,
      title: 'E-Mail-Adresse nicht bestätigt',
      status: 403,
      detail: 'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse und versuchen Sie es dann erneut.',
    });
    expect(german.headers).toEqual(english.headers);
  });

  it('answers a rate limit in German with the wait of its English and the same Retry-After', async () => {
    const limiter = {
      acquire: vi.fn(async () => ({ allowed: false, retryAfterSeconds: 300 })),
      release: vi.fn(),
    };
    const error = await spendSignedInWrite(limiter as never, 'consent', 'auth0|u').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    const german = problemFor(error, { requestId: 'r', locale: 'de' });
    expect(german.problem.detail).toBe(
      'Zu viele Anfragen dieser Art von Ihrem Konto. Bitte versuchen Sie es in 5 Minuten erneut.',
    );
    expect(german.problem.title).toBe('Zu viele Anfragen');
    expect(german.headers).toEqual({ 'retry-after': '300' });
    expect(problemFor(error, { requestId: 'r', locale: 'en' }).problem.detail).toBe(
      'Too many requests of this kind from your account. Please try again in 5 minutes.',
    );
  });

  it("answers the 5xx row's detail in German, the reference unchanged", () => {
    const unknown = problemFor(new Error('internal'), { requestId: 'req-9', locale: 'de' });
    expect(unknown.problem.detail).toBe(
      'Bei uns ist ein Fehler aufgetreten. Bitte nennen Sie diese Referenz, wenn Sie uns kontaktieren: req-9',
    );
    expect(problemFor(new Error('internal'), { requestId: 'req-9' }).problem.detail).toBe(
      'Something went wrong on our side. Quote this reference if you contact us: req-9',
    );
    const store = problemFor(new StorageUnavailableError('GetItem'), { requestId: 'r', locale: 'de' });
    expect(store.problem).toMatchObject({
      title: 'Dienst nicht verfügbar',
      detail:
        'Die Anfrage konnte gerade nicht verarbeitet werden. Bitte versuchen Sie es in 5 Sekunden erneut.',
    });
  });

  it('translates every field message, keeping the fields', () => {
    const error = new ConsentRefusedError([
      { field: 'biometric_data_consent', message: 'You must consent to the processing of biometric data' },
    ]);
    expect(problemFor(error, { requestId: 'r', locale: 'de' }).problem).toMatchObject({
      title: 'Ungültige Anfrage',
      detail: 'Die Einwilligung erfordert Ihre Zustimmung zu jeder Erklärung.',
      errors: [
        {
          field: 'biometric_data_consent',
          message: 'Sie müssen in die Verarbeitung biometrischer Daten einwilligen',
        },
      ],
    });
  });

  it('never throws: a problem it cannot translate stays English', () => {
    const broken = {
      type: problemTypes.validation,
      title: 'Bad Request',
      status: 400,
      errors: [{ field: 'x', message: undefined as unknown as string }],
    };
    expect(() => localizedProblem(broken, 'de')).not.toThrow();
    const unknown = {
      type: problemTypes.validation,
      title: 'Bad Request',
      status: 400,
      detail: 'Not in the dictionary.',
    };
    expect(localizedProblem(unknown, 'de').problem).toEqual({ ...unknown, title: 'Ungültige Anfrage' });
  });
});

describe('httpHandler', () => {
  const handler = httpHandler({ route: apiRoutes.CreateWaitlistEntry }, async () => ({
    status: 201,
    body: { success: true },
  }));
  const registration = httpHandler({ route: apiRoutes.CreateRegistration }, async () => ({
    status: 201,
    body: { success: true },
  }));
  const withLanguage = (language: string | undefined, body: string) => {
    const event = httpApiEvent({ body });
    if (language !== undefined) event.headers['accept-language'] = language;
    return event;
  };

  it.each([
    ['de', 'de'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['en-US', 'en'],
    ['fr-FR,fr;q=0.9', 'en'],
    [undefined, 'en'],
  ])('answers a problem for Accept-Language %s in %s, with Content-Language', async (header, language) => {
    const result = await handler(withLanguage(header, '{"email":"not-an-email"}'), lambdaContext);
    expect(result.statusCode).toBe(400);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(result.headers?.['content-language']).toBe(language);
    const problem = parse(result.body);
    expect(problem.type).toBe(problemTypes.validation);
    expect(problem.errors).toEqual([
      {
        field: 'email',
        message:
          language === 'de'
            ? 'Bitte geben Sie eine gültige E-Mail-Adresse ein'
            : 'Please enter a valid email address',
      },
    ]);
    expect(problem.detail).toBe(
      language === 'de' ? 'Die Anfrage enthält ungültige Felder.' : 'The request has invalid fields.',
    );
  });

  it("answers a registration's field messages in German, the length's too", async () => {
    const body = JSON.stringify({
      responsibleName: 'A',
      responsibleTitle: 'CTO',
      responsibleEmail: 'ada@gmail.com',
      responsiblePhone: '+49 30 1234567890 1234567890 1234567890 1234567890',
      organizationName: 'Helix Labs',
      organizationUrl: 'https://helix.example',
      organizationType: 'commercial',
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    });
    const result = await registration(withLanguage('de', body), lambdaContext);
    expect(parse(result.body).errors).toEqual([
      { field: 'responsibleName', message: 'Der Name muss mindestens 2 Zeichen lang sein' },
      {
        field: 'responsibleEmail',
        message:
          'Private E-Mail-Adressen (Gmail, Yahoo usw.) sind nicht zulässig. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
      },
      { field: 'responsiblePhone', message: 'Darf höchstens 40 Zeichen lang sein' },
    ]);
    const english = await registration(withLanguage('en', body), lambdaContext);
    expect(parse(english.body).errors).toContainEqual({
      field: 'responsibleEmail',
      message: businessEmailMessages.personal,
    });
  });

  it('leaves an answer that is not a problem as it was', async () => {
    const result = await handler(withLanguage('de', '{"email":"ada@example.com"}'), lambdaContext);
    expect(result.statusCode).toBe(201);
    expect(result.headers?.['content-language']).toBeUndefined();
    expect(parse(result.body)).toEqual({ success: true });
  });
});
