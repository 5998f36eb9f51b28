import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { DATABASE_CONNECTION } from '#lambdas/adapters/auth0-database-connection.ts';

export { DATABASE_CONNECTION };

export class UserExistsError extends Error {
  constructor() {
    super('user exists');
    this.name = 'UserExistsError';
  }
}

/** The user as the Management API returns it (Auth0 shape, no secrets). */
export interface Auth0User {
  user_id: string;
  email: string;
  email_verified: boolean;
  name: string;
  nickname: string;
  picture: string;
  created_at: string;
  updated_at: string;
  identities: { connection: string; provider: 'auth0'; user_id: string; isSocial: false }[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  logins_count: number;
  last_login?: string;
  blocked: boolean;
}

/** What the store keeps: that user less its identities (derived from the id), plus the password hash. */
export interface StoredUser extends Omit<Auth0User, 'identities'> {
  password_hash: string;
}

export type TicketKind = 'email_verification' | 'password_change';

export interface Ticket {
  id: string;
  kind: TicketKind;
  user_id: string;
  expires_at: number; // epoch ms
  result_url?: string;
  mark_email_as_verified?: boolean;
  include_email_in_redirect?: boolean;
  client_id?: string;
}

interface StoreFile {
  users: StoredUser[];
}

interface TicketFile {
  tickets: Ticket[];
}

const SCRYPT_N = 16384;
// Asynchronous, on libuv's thread pool: the identity provider shares its process with the local
// gateway, which runs every Lambda. A synchronous scrypt (about 60 ms) per user created or signed
// in stalled all of them during a burst of sign-ups, and their own timeouts turned that into 5xx
// (issue 11; ADR 0036).
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, { N: SCRYPT_N, r: 8, p: 1 });
  return `scrypt$${SCRYPT_N}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: 8,
    p: 1,
  });
  return timingSafeEqual(expected, actual);
}

export function writeJsonAtomic(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

function gravatarLike(email: string): string {
  const initials =
    (email.split('@')[0] ?? email)
      .replace(/[^a-z]/gi, '')
      .slice(0, 2)
      .toLowerCase() || 'u';
  return `https://cdn.auth0.com/avatars/${encodeURIComponent(initials)}.png`;
}

/** Users and single-use tickets, persisted as JSON files in `dataDir`. Emails compare case-insensitively. */
export class UserStore {
  readonly #usersFile: string;
  readonly #ticketsFile: string;
  #users: StoredUser[];
  #tickets: Ticket[];

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#usersFile = join(dataDir, 'users.json');
    this.#ticketsFile = join(dataDir, 'tickets.json');
    this.#users = existsSync(this.#usersFile)
      ? (JSON.parse(readFileSync(this.#usersFile, 'utf8')) as StoreFile).users
      : [];
    this.#tickets = existsSync(this.#ticketsFile)
      ? (JSON.parse(readFileSync(this.#ticketsFile, 'utf8')) as TicketFile).tickets
      : [];
  }

  #saveUsers(): void {
    writeJsonAtomic(this.#usersFile, { users: this.#users } satisfies StoreFile);
  }

  #saveTickets(): void {
    const now = Date.now();
    this.#tickets = this.#tickets.filter((t) => t.expires_at > now);
    writeJsonAtomic(this.#ticketsFile, { tickets: this.#tickets } satisfies TicketFile);
  }

  findById(userId: string): StoredUser | undefined {
    return this.#users.find((u) => u.user_id === userId);
  }

  findByEmail(email: string): StoredUser | undefined {
    const wanted = email.trim().toLowerCase();
    return this.#users.find((u) => u.email.toLowerCase() === wanted);
  }

  async create(input: {
    email: string;
    password: string;
    name?: string | undefined;
    emailVerified?: boolean | undefined;
    appMetadata?: Record<string, unknown> | undefined;
    userMetadata?: Record<string, unknown> | undefined;
    blocked?: boolean | undefined;
  }): Promise<StoredUser> {
    const passwordHash = await hashPassword(input.password);
    // Checked after the hash, with no await before the insert: two creates of one address cannot both pass.
    if (this.findByEmail(input.email)) throw new UserExistsError();
    const now = new Date().toISOString();
    const email = input.email.trim();
    const user: StoredUser = {
      user_id: `auth0|${randomBytes(12).toString('hex')}`,
      email,
      email_verified: input.emailVerified ?? false,
      name: input.name ?? email,
      nickname: email.split('@')[0] ?? email,
      picture: gravatarLike(email),
      password_hash: passwordHash,
      app_metadata: input.appMetadata ?? {},
      user_metadata: input.userMetadata ?? {},
      blocked: input.blocked ?? false,
      created_at: now,
      updated_at: now,
      logins_count: 0,
    };
    this.#users.push(user);
    this.#saveUsers();
    return user;
  }

  /** Applies `change` to the stored user and persists it. */
  update(userId: string, change: (user: StoredUser) => void): StoredUser | undefined {
    const user = this.findById(userId);
    if (!user) return undefined;
    change(user);
    user.updated_at = new Date().toISOString();
    this.#saveUsers();
    return user;
  }

  delete(userId: string): boolean {
    const before = this.#users.length;
    this.#users = this.#users.filter((u) => u.user_id !== userId);
    if (this.#users.length === before) return false;
    this.#tickets = this.#tickets.filter((t) => t.user_id !== userId);
    this.#saveUsers();
    this.#saveTickets();
    return true;
  }

  /** Checks email + password; returns the user or undefined (never says which part was wrong). */
  async authenticate(email: string, password: string): Promise<StoredUser | undefined> {
    const user = this.findByEmail(email);
    if (!user) return undefined;
    return (await verifyPassword(password, user.password_hash)) ? user : undefined;
  }

  recordLogin(userId: string): void {
    this.update(userId, (u) => {
      u.logins_count += 1;
      u.last_login = new Date().toISOString();
    });
  }

  createTicket(input: Omit<Ticket, 'id'>): Ticket {
    const ticket: Ticket = { ...input, id: randomBytes(24).toString('base64url') };
    this.#tickets.push(ticket);
    this.#saveTickets();
    return ticket;
  }

  /** A live (unexpired, unused) ticket of the given kind. */
  findTicket(id: string, kind: TicketKind): Ticket | undefined {
    return this.#tickets.find((t) => t.id === id && t.kind === kind && t.expires_at > Date.now());
  }

  consumeTicket(id: string): void {
    this.#tickets = this.#tickets.filter((t) => t.id !== id);
    this.#saveTickets();
  }
}

export function toAuth0User(user: StoredUser): Auth0User {
  const [, localId = user.user_id] = user.user_id.split('|');
  return {
    user_id: user.user_id,
    email: user.email,
    email_verified: user.email_verified,
    name: user.name,
    nickname: user.nickname,
    picture: user.picture,
    created_at: user.created_at,
    updated_at: user.updated_at,
    identities: [{ connection: DATABASE_CONNECTION, provider: 'auth0', user_id: localId, isSocial: false }],
    app_metadata: structuredClone(user.app_metadata),
    user_metadata: structuredClone(user.user_metadata),
    logins_count: user.logins_count,
    ...(user.last_login ? { last_login: user.last_login } : {}),
    blocked: user.blocked,
  };
}
