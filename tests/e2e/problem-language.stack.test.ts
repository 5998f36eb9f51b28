import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { businessEmailMessages } from '#contracts/business-email.ts';
import { problemContentType, problemTypes } from '#contracts/problem.ts';
import { registrationMessages } from '#contracts/registration.ts';
import { profileKey } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { registeredUser } from '#tests/helpers/registration.ts';
import { createTestUser } from '#tests/helpers/tokens.ts';

// Issue 28, ADR 0089, through the web origin as the browser calls it: a problem answers in the
// language of the request's `Accept-Language` (English without one, or for any other language),
// its field messages and detail exact, with `Content-Language`.

const stack = inject('stack');
const db = stackDb(stack);

const call = (path: string, init: { method?: string; body?: unknown; token?: string; language?: string }) =>
  fetch(`${stack.web}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.language ? { 'accept-language': init.language } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
}

async function problemOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(problemContentType);
  return (await response.json()) as ProblemBody;
}

/** A registration with a personal address and a one-letter name: nothing else is wrong. */
const invalidRegistration = () => ({
  ...sampleRegistrationRequest,
  responsibleName: 'A',
  responsibleEmail: `someone-${randomBytes(4).toString('hex')}@gmail.com`,
});

describe('POST /api/registrations with invalid fields', () => {
  it('answers the field messages in German for Accept-Language: de', async () => {
    const response = await call('/api/registrations', {
      method: 'POST',
      body: invalidRegistration(),
      language: 'de',
    });
    const problem = await problemOf(response, 400);
    expect(response.headers.get('content-language')).toBe('de');
    expect(problem).toEqual({
      type: problemTypes.validation,
      title: 'Ungültige Anfrage',
      status: 400,
      detail: 'Die Anfrage enthält ungültige Felder.',
      errors: [
        { field: 'responsibleName', message: 'Der Name muss mindestens 2 Zeichen lang sein' },
        {
          field: 'responsibleEmail',
          message:
            'Private E-Mail-Adressen (Gmail, Yahoo usw.) sind nicht zulässig. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
        },
      ],
    });
  });

  it.each([
    ['without Accept-Language', undefined],
    ['for Accept-Language: en-US', 'en-US'],
    ['for a language the product does not speak', 'fr-FR,fr;q=0.9'],
  ])('answers the English messages exactly %s', async (_name, language) => {
    const response = await call('/api/registrations', {
      method: 'POST',
      body: invalidRegistration(),
      ...(language ? { language } : {}),
    });
    const problem = await problemOf(response, 400);
    expect(response.headers.get('content-language')).toBe('en');
    expect(problem).toEqual({
      type: problemTypes.validation,
      title: 'Bad Request',
      status: 400,
      detail: 'The request has invalid fields.',
      errors: [
        { field: 'responsibleName', message: registrationMessages.responsibleName },
        { field: 'responsibleEmail', message: businessEmailMessages.personal },
      ],
    });
    expect(problem.errors?.[0]?.message).toBe('Name must have at least 2 characters');
  });
});

describe('a signed-in route', () => {
  it('answers 401 with a German detail when the session ended (removed from the organization)', async () => {
    const person = await registeredUser(stack, 'Lingua Labs', 'defense');
    // What an org_admin's removal leaves on the profile (ADR 0084): the next check ends the session.
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName('Submissions'),
        Key: profileKey(person.userId),
        UpdateExpression: 'SET organizationRemovedAt = :at',
        ExpressionAttributeValues: { ':at': new Date().toISOString() },
      }),
    );
    const german = await call('/api/me', { token: person.token, language: 'de-DE,de;q=0.9,en;q=0.8' });
    expect(german.headers.get('content-language')).toBe('de');
    expect(await problemOf(german, 401)).toEqual({
      type: problemTypes.organizationMembershipEnded,
      title: 'Nicht angemeldet',
      status: 401,
      detail:
        'Sie sind nicht mehr Mitglied dieser Organisation. Bitten Sie die Administration der Organisation, Sie erneut einzuladen.',
    });
    const english = await call('/api/me', { token: person.token });
    expect((await problemOf(english, 401)).detail).toBe(
      'You are no longer a member of this organization. Ask its administrator to invite you again.',
    );
  });

  it('answers 403 with a German detail for a route that needs the admin role', async () => {
    const user = await createTestUser(stack);
    const response = await call('/api/admin/verifications', { token: user.token, language: 'de' });
    expect(response.headers.get('content-language')).toBe('de');
    expect(await problemOf(response, 403)).toEqual({
      type: problemTypes.adminRequired,
      title: 'Nicht erlaubt',
      status: 403,
      detail: 'Für diese Aktion ist die Administratorrolle erforderlich.',
    });
  });
});
