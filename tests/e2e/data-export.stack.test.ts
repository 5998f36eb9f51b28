import { describe, expect, inject, it } from 'vitest';
import { dataExport } from '#contracts/data-export.ts';
import { problemTypes } from '#contracts/problem.ts';
import { registeredUser } from '#tests/helpers/registration.ts';

// GET /api/me/export through the web origin (issue 26, item 2; ADR 0076): the caller's own data as
// a download, and 5 a day.

const stack = inject('stack');

const exportOf = (token: string) =>
  fetch(`${stack.web}/api/me/export`, { headers: { authorization: `Bearer ${token}` } });

describe('GET /api/me/export', () => {
  it("answers the caller's registration and consent records as an attachment, nobody else's, and 429 on the 6th call of the day", async () => {
    const [ada, bob] = await Promise.all([
      registeredUser(stack, 'Ada Labs'),
      registeredUser(stack, 'Bob Works'),
    ]);

    const response = await exportOf(ada.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/,
    );
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    const document = dataExport.parse(JSON.parse(text));
    expect(document).toMatchObject({
      format: 'platform-personal-data-export',
      version: 1,
      profile: { userId: ada.userId, email: ada.email },
      organization: { name: 'Ada Labs', type: 'commercial' },
      registration: { email: ada.email, organizationName: 'Ada Labs', responsibleName: 'Grace Hopper' },
    });
    // The registration's agreements, each with the text version shown.
    expect(document.consents.length).toBeGreaterThan(0);
    for (const consent of document.consents) {
      expect(consent.documentVersion).toMatch(/\S/);
      expect(consent.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(text).not.toContain(bob.userId);
    expect(text).not.toContain(bob.email);
    expect(text).not.toContain('Bob Works');

    for (let call = 2; call <= 5; call++) expect((await exportOf(ada.token)).status).toBe(200);
    const sixth = await exportOf(ada.token);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sixth.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await sixth.json()) as { type: string }).type).toBe(problemTypes.rateLimited);
    // Another person's budget is their own.
    expect((await exportOf(bob.token)).status).toBe(200);
  });
});
