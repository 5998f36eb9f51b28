import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ConsentHistory } from '#contracts/consent.ts';
import { documentSha256, localizedConsentDocuments } from '#contracts/consent-documents.ts';
import { verifyChain } from '#lambdas/domain/consent/hash-chain.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import { main } from '#scripts/audit-consents/run.ts';
import { stackDb } from '#tests/helpers/dynamodb.ts';
import { managementFetch } from '#tests/helpers/management-api.ts';
import { mailbox, managementToken, passwordToken } from '#tests/helpers/tokens.ts';

// Issue 28 on the local stack: a registration's language (its Accept-Language) decides the
// language of its login instructions and of the agreements' records; a consent names its
// language and the hash of the text in it, and becomes the person's latest choice, which a later
// decision email follows; the audit export carries the language.

const stack = inject('stack');
const db = stackDb(stack);

const settle = () => fetch(`${stack.api}/__local/events/settle`, { method: 'POST' });
const mailTo = async (email: string) =>
  (await mailbox(stack)).filter((mail) => mail.destination.to.includes(email));

async function register(acceptLanguage: string | undefined) {
  const email = `lang-${randomBytes(6).toString('hex')}@helix-labs.example`;
  const response = await fetch(`${stack.web}/api/registrations`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }),
    },
    body: JSON.stringify({
      responsibleName: 'Emmy Noether',
      responsibleTitle: 'Leiterin',
      responsibleEmail: email,
      responsiblePhone: '+49 30 1234567',
      organizationName: 'Noether Labor',
      organizationUrl: 'https://noether-labor.example',
      organizationType: 'academic',
      termsAgreed: true,
      privacyAgreed: true,
      nonHarmAgreed: true,
    }),
  });
  expect(response.status).toBe(201);
  await settle();
  return email;
}

async function userIdOf(email: string): Promise<string> {
  const response = await managementFetch(
    `${stack.idp.issuer}api/v2/users-by-email?email=${encodeURIComponent(email)}`,
    { headers: { authorization: `Bearer ${await managementToken(stack)}` } },
  );
  const [user] = (await response.json()) as { user_id: string }[];
  if (!user) throw new Error(`no user for ${email}`);
  return user.user_id;
}

const item = async (pk: string, sk: string) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName('Submissions'), Key: { pk, sk } }))).Item;

async function ledgerOf(userId: string): Promise<ConsentRecord[]> {
  return ((await db.scan('ConsentLedger')) as unknown as ConsentRecord[])
    .filter((record) => record.subjectId === userId)
    .sort((a, b) => a.sequence - b.sequence);
}

/** Sets the password from the login instructions' link and signs in, as the person does. */
async function signIn(email: string): Promise<string> {
  const [instructions] = await mailTo(email);
  const ticketUrl = /(http:\/\/\S+\/lo\/reset\?ticket=[^\s"<#]+)/.exec(instructions?.body.text ?? '')?.[1];
  const ticket = new URL(ticketUrl ?? 'http://missing/').searchParams.get('ticket') ?? '';
  const password = `Gewaehlt-${randomBytes(8).toString('hex')}`;
  await fetch(`${stack.idp.issuer}lo/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, password, confirm: password }).toString(),
    redirect: 'manual',
  });
  return passwordToken(stack, email, password);
}

const registrationPurposes = ['terms_of_service', 'privacy_policy', 'non_harmful_use'] as const;

describe('a registration in German', () => {
  let email: string;
  let userId: string;
  beforeAll(async () => {
    email = await register('de-DE,de;q=0.9,en;q=0.8');
    userId = await userIdOf(email);
  });

  it('gets the German login instructions', async () => {
    const mails = await mailTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Ihre Anleitung zur Anmeldung']);
    expect(mails[0]?.body.text).toContain(`Für ${email} wurde ein Konto angelegt.`);
    expect(mails[0]?.body.html).toContain('<html lang="de">');
  });

  it('stores its language with the registration and the profile', async () => {
    expect((await item(`REGISTRATION#${userId}`, 'REGISTRATION'))?.locale).toBe('de');
    expect((await item(`PROFILE#${userId}`, 'PROFILE'))?.registrationLocale).toBe('de');
  });

  it("records the agreements with 'de' and the German documents' hashes", async () => {
    const records = await ledgerOf(userId);
    expect(records.map((record) => [record.purpose, record.locale, record.documentSha256])).toEqual(
      await Promise.all(
        registrationPurposes.map(async (purpose) => [
          purpose,
          'de',
          await documentSha256(localizedConsentDocuments.de[purpose]),
        ]),
      ),
    );
  });
});

describe('a registration in English or without a language', () => {
  it.each([
    ['en', 'en-GB,en;q=0.9'],
    ['no header', undefined],
    ['a language we do not speak', 'fr-FR,fr;q=0.9'],
  ])('gets the English login instructions (%s)', async (_name, header) => {
    const email = await register(header);
    const userId = await userIdOf(email);
    expect((await mailTo(email)).map((mail) => mail.subject)).toEqual(['Your login instructions']);
    expect((await item(`REGISTRATION#${userId}`, 'REGISTRATION'))?.locale).toBe('en');
    const records = await ledgerOf(userId);
    expect(records.map((record) => record.locale)).toEqual(['en', 'en', 'en']);
    expect(records[0]?.documentSha256).toBe(
      await documentSha256(localizedConsentDocuments.en.terms_of_service),
    );
  });
});

describe('a consent given in German', () => {
  let email: string;
  let userId: string;
  let token: string;
  let dir: string;
  const grant = {
    identity_verification_consent: true,
    biometric_data_consent: true,
    privacy_policy_consent: true,
    consent_type: 'identity_verification',
  };
  const consent = (body: unknown) =>
    fetch(`${stack.web}/api/consents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    // Registered in English: the consent's German is the latest choice.
    email = await register('en');
    userId = await userIdOf(email);
    token = await signIn(email);
    dir = await mkdtemp(join(tmpdir(), 'languages-audit-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is recorded with 'de' and the German document's SHA-256, as GET /api/me/consents shows", async () => {
    expect((await consent({ ...grant, locale: 'de' })).status).toBe(201);
    const response = await fetch(`${stack.web}/api/me/consents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const { records } = (await response.json()) as ConsentHistory;
    const identity = records.filter((record) => record.purpose === 'identity_verification');
    const german = localizedConsentDocuments.de.identity_verification;
    expect(identity).toEqual([
      expect.objectContaining({
        action: 'granted',
        locale: 'de',
        documentVersion: german.version,
        documentSha256: await documentSha256(german),
      }),
    ]);
    expect(await documentSha256(german)).not.toBe(
      await documentSha256(localizedConsentDocuments.en.identity_verification),
    );
  });

  it("becomes the person's latest choice on their profile, in the same write", async () => {
    const profile = await item(`PROFILE#${userId}`, 'PROFILE');
    expect(profile).toMatchObject({ registrationLocale: 'en', preferredLocale: 'de' });
    const [granted] = (await ledgerOf(userId)).filter((record) => record.purpose === 'identity_verification');
    expect(profile?.preferredLocaleAt).toBe(granted?.recordedAt);
  });

  it('keeps one intact chain and the choice under 10 concurrent consents in German (transactions on one profile)', async () => {
    const other = await register('en');
    const otherToken = await signIn(other);
    const otherId = await userIdOf(other);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${stack.web}/api/consents`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${otherToken}` },
          body: JSON.stringify({ ...grant, locale: 'de' }),
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    const records = await ledgerOf(otherId);
    expect(records.map((record) => record.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(verifyChain(records).ok).toBe(true);
    expect((await item(`PROFILE#${otherId}`, 'PROFILE'))?.preferredLocale).toBe('de');
  });

  it('is exported by the audit with its language', async () => {
    const stackFile = join(dir, 'stack.json');
    await writeFile(stackFile, JSON.stringify({ dynamodb: stack.dynamodb }));
    for (const format of ['csv', 'json'] as const) {
      const out = join(dir, `audit.${format}`);
      const status = await main(['--user', userId, '--format', format, '--out', out, '--stack', stackFile], {
        stdout: () => {},
        stderr: () => {},
        env: process.env,
      });
      expect(status).toBe(0);
      const exported = await readFile(out, 'utf8');
      if (format === 'json') {
        const { records } = JSON.parse(exported) as { records: ConsentRecord[] };
        expect(records.map((record) => [record.purpose, record.locale])).toEqual([
          ['terms_of_service', 'en'],
          ['privacy_policy', 'en'],
          ['non_harmful_use', 'en'],
          ['identity_verification', 'de'],
        ]);
      } else {
        // documentVersion, documentSha256, locale and method are adjacent columns.
        const [header] = exported.split('\r\n');
        expect(header).toContain(',documentVersion,documentSha256,locale,method,');
        const german = localizedConsentDocuments.de.identity_verification;
        expect(exported).toContain(`,${german.version},${await documentSha256(german)},de,consent_dialog,`);
      }
    }
  });

  it('is the language of the decision email that follows', async () => {
    const eventBridge = new EventBridgeClient({
      endpoint: stack.eventBridge.endpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const answer = await eventBridge.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: stack.eventBridge.busName,
            Source: 'platform.kyc',
            DetailType: 'KycStatusChanged',
            Detail: JSON.stringify({
              userId,
              status: 'rejected',
              previousStatus: 'pending',
              inquiryId: null,
              decidedBy: 'admin',
              occurredAt: new Date().toISOString(),
              reasonCode: 'document_expired',
              changeId: `languages-${randomBytes(6).toString('hex')}`,
            }),
          },
        ],
      }),
    );
    expect(answer.FailedEntryCount ?? 0).toBe(0);
    await settle();
    const decision = (await mailTo(email)).filter((mail) => mail.subject !== 'Your login instructions');
    expect(decision.map((mail) => mail.subject)).toEqual(['Ihre Identitätsprüfung wurde nicht genehmigt']);
    expect(decision[0]?.body.text).toContain('Der Grund: Das Ausweisdokument war abgelaufen.');
  });
});

describe('a public deletion request in German', () => {
  it('gets its confirmation email in German', async () => {
    const email = `loeschen-${randomBytes(6).toString('hex')}@helix-labs.example`;
    const response = await fetch(`${stack.web}/api/data-deletion-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'de' },
      body: JSON.stringify({ email }),
    });
    expect(response.status).toBe(202);
    const mails = await mailTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Bestätigen Sie Ihre Anfrage zur Datenlöschung']);
    expect(mails[0]?.body.text).toContain('Löschanfrage bestätigen');
  });
});
