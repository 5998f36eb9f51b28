import { describe, expect, it } from 'vitest';
import { loginOrganization } from '#web/lib/auth/auth0.tsx';

// The organization a sign-in goes through (ADR 0083): the link's `?organization=`, remembered.

function memory() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      items.set(key, value);
    },
  };
}

describe('loginOrganization', () => {
  it("takes the link's organization and remembers it for the next sign-in", () => {
    const storage = memory();
    expect(loginOrganization('?organization=org_0123456789abcdef', storage)).toEqual({
      organization: 'org_0123456789abcdef',
    });
    expect(loginOrganization('', storage)).toEqual({ organization: 'org_0123456789abcdef' });
  });

  it('ignores what is not an Auth0 organization id, and asks for none without one', () => {
    const storage = memory();
    expect(loginOrganization('?organization=acme%26prompt%3Dnone', storage)).toEqual({});
    expect(storage.items.size).toBe(0);
    expect(loginOrganization('', storage)).toEqual({});
  });

  it("uses the link's organization once when storage refuses", () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(loginOrganization('?organization=org_abc', refusing)).toEqual({ organization: 'org_abc' });
  });
});
