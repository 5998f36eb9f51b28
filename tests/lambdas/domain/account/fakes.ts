import type { OrganizationRole } from '#contracts/organization.ts';
import type { OnceMarker, RateLimiter } from '#lambdas/domain/ports.ts';
import {
  type AppMetadata,
  type DirectoryOrganization,
  type DirectoryUser,
  type EmailMessage,
  type KycState,
  type KycStateReader,
  type Mailer,
  type OrganizationDirectory,
  OrganizationNameTakenError,
  type OrganizationRecord,
  type OrganizationRecords,
  type ProfileLookup,
  UserAlreadyExistsError,
  type UserDirectory,
  type UserProfile,
  type UserProfiles,
} from '#lambdas/domain/ports.ts';
import type {
  RegistrationProgress,
  RegistrationRecord,
  RegistrationRequestRecord,
  RegistrationStore,
} from '#lambdas/domain/registration/ports.ts';

// In-memory stand-ins for the ports, with switches to make the next call fail.

type Patch = { [K in keyof AppMetadata]?: AppMetadata[K] | null };

/** Auth0 Organizations as registration uses them (ADR 0083), with each call counted. */
export class FakeOrganizations implements OrganizationDirectory {
  readonly organizations = new Map<
    string,
    DirectoryOrganization & { displayName: string; members: Map<string, Set<OrganizationRole>> }
  >();
  readonly calls: string[] = [];
  /** Next create: the organization is stored, then the call fails as a timeout would. */
  loseNextCreateAnswer = false;
  private sequence = 0;

  async createOrganization(input: { name: string; displayName: string; metadata: Record<string, string> }) {
    this.calls.push('create');
    if ([...this.organizations.values()].some((o) => o.name === input.name)) {
      throw new OrganizationNameTakenError('taken');
    }
    this.sequence += 1;
    const organization = {
      id: `org_${String(this.sequence).padStart(16, '0')}`,
      name: input.name,
      displayName: input.displayName,
      metadata: { ...input.metadata },
      members: new Map<string, Set<OrganizationRole>>(),
    };
    this.organizations.set(organization.id, organization);
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      throw new Error('socket hang up');
    }
    return { id: organization.id, name: organization.name, metadata: { ...organization.metadata } };
  }

  async findOrganizationByName(name: string) {
    this.calls.push('getByName');
    const found = [...this.organizations.values()].find((o) => o.name === name);
    return found ? { id: found.id, name: found.name, metadata: { ...found.metadata } } : undefined;
  }

  async addMember(organizationId: string, userId: string, roles: readonly OrganizationRole[]) {
    this.calls.push('addMember');
    const organization = this.organizations.get(organizationId);
    if (!organization) throw new Error('no such organization');
    const held = organization.members.get(userId) ?? new Set<OrganizationRole>();
    for (const role of roles) held.add(role);
    organization.members.set(userId, held);
  }
}

export class FakeOrganizationRecords implements OrganizationRecords {
  readonly records = new Map<string, OrganizationRecord>();
  async saveOnce(record: OrganizationRecord) {
    if (!this.records.has(record.organizationId)) this.records.set(record.organizationId, { ...record });
  }
  async get(organizationId: string) {
    const record = this.records.get(organizationId);
    return record ? { ...record } : undefined;
  }
}

export class FakeDirectory implements UserDirectory {
  readonly users = new Map<string, DirectoryUser & { password: string }>();
  readonly patches: { userId: string; patch: Patch }[] = [];
  readonly tickets: { userId: string; resultUrl: string; url: string }[] = [];
  readonly verificationEmails: string[] = [];
  createCalls = 0;
  /** Next create: the user is stored, then the call fails as a timeout would. */
  loseNextCreateAnswer = false;
  /** Next create: the user is stored, then the call answers 409 (our own retried POST). */
  conflictAfterNextCreate = false;
  private sequence = 0;

  async get(userId: string) {
    const user = this.users.get(userId);
    return user ? this.public(user) : undefined;
  }

  async findByEmail(email: string) {
    const wanted = email.toLowerCase();
    const user = [...this.users.values()].find((u) => u.email.toLowerCase() === wanted);
    return user ? this.public(user) : undefined;
  }

  async create(input: { email: string; name: string; password: string; appMetadata: AppMetadata }) {
    this.createCalls += 1;
    if (await this.findByEmail(input.email)) throw new UserAlreadyExistsError('exists');
    this.sequence += 1;
    const user = {
      userId: `auth0|user${this.sequence}`,
      email: input.email,
      emailVerified: false,
      name: input.name,
      appMetadata: { ...input.appMetadata },
      password: input.password,
    };
    this.users.set(user.userId, user);
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      throw new Error('socket hang up');
    }
    if (this.conflictAfterNextCreate) {
      this.conflictAfterNextCreate = false;
      throw new UserAlreadyExistsError('exists');
    }
    return this.public(user);
  }

  async updateAppMetadata(userId: string, patch: Patch) {
    this.patches.push({ userId, patch });
    const user = this.users.get(userId);
    if (!user) throw new Error('no such user');
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete (user.appMetadata as Record<string, unknown>)[key];
      else if (value !== undefined) (user.appMetadata as Record<string, unknown>)[key] = value;
    }
    return { ...user.appMetadata };
  }

  async createPasswordChangeTicket(userId: string, resultUrl: string) {
    const url = `https://tenant.example/lo/reset?ticket=T${this.tickets.length + 1}#`;
    this.tickets.push({ userId, resultUrl, url });
    return url;
  }

  async sendVerificationEmail(userId: string) {
    if (!this.users.has(userId)) return false;
    this.verificationEmails.push(userId);
    return true;
  }

  async delete(userId: string) {
    this.users.delete(userId);
  }

  add(user: Partial<DirectoryUser> & { email: string }): DirectoryUser {
    this.sequence += 1;
    const stored = {
      userId: `auth0|seed${this.sequence}`,
      emailVerified: true,
      name: 'Seeded',
      appMetadata: { role: 'user' as const, kyc_status: 'approved' as const },
      password: 'seeded',
      ...user,
    };
    this.users.set(stored.userId, stored);
    return this.public(stored);
  }

  private public(user: DirectoryUser & { password: string }): DirectoryUser {
    const { password: _password, ...rest } = user;
    return { ...rest, appMetadata: { ...rest.appMetadata } };
  }
}

export class FakeMailer implements Mailer {
  readonly sent: EmailMessage[] = [];
  failNext = false;
  async send(message: EmailMessage) {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('SES throttled');
    }
    this.sent.push(message);
  }
}

export class FakeRegistrationStore implements RegistrationStore {
  readonly progress = new Map<string, RegistrationProgress>();
  readonly registrations = new Map<string, RegistrationRecord>();
  readonly requests = new Map<string, RegistrationRequestRecord>();
  async saveRequest(record: RegistrationRequestRecord) {
    if (this.requests.has(record.registrationId)) throw new Error('request exists');
    this.requests.set(record.registrationId, structuredClone(record));
  }
  async getRequest(registrationId: string) {
    return structuredClone(this.requests.get(registrationId));
  }
  async getProgress(email: string) {
    return this.progress.get(email);
  }
  async saveProgress(progress: RegistrationProgress) {
    this.progress.set(progress.email, { ...progress });
  }
  async saveRegistrationOnce(record: RegistrationRecord) {
    const existing = this.registrations.get(record.userId);
    if (existing) return existing;
    this.registrations.set(record.userId, record);
    return record;
  }
  async getRegistration(userId: string) {
    return this.registrations.get(userId);
  }
}

export class FakeKyc implements KycStateReader {
  readonly states = new Map<
    string,
    Pick<KycState, 'status' | 'updatedAt' | 'inquiryId'> & Partial<KycState>
  >();
  async getState(userId: string): Promise<KycState | undefined> {
    const state = this.states.get(userId);
    return (
      state && {
        reasonCode: null,
        attempt: state.inquiryId ? 1 : 0,
        newAttemptAllowed: false,
        ...state,
      }
    );
  }
}

export class FakeLimiter implements RateLimiter {
  private readonly windows = new Map<string, { until: number; used: number }>();
  constructor(private readonly now: () => number) {}
  async acquire(action: string, subject: string, windowSeconds: number, limit = 1) {
    const key = `${action}#${subject}`;
    const open = this.windows.get(key);
    if (open !== undefined && open.until > this.now() && open.used > 0) {
      if (open.used < limit) {
        open.used += 1;
        return { allowed: true as const };
      }
      return { allowed: false as const, retryAfterSeconds: Math.ceil((open.until - this.now()) / 1000) };
    }
    this.windows.set(key, { until: this.now() + windowSeconds * 1000, used: 1 });
    return { allowed: true as const };
  }
  async release(action: string, subject: string) {
    const open = this.windows.get(`${action}#${subject}`);
    if (open !== undefined && open.until > this.now() && open.used > 0) open.used -= 1;
  }
  /** The subjects the limiter has seen, as stored. */
  subjects(): string[] {
    return [...this.windows.keys()];
  }
}

export class FakeMarker implements OnceMarker {
  readonly state = new Map<string, 'pending' | 'done' | 'released'>();
  async take(id: string) {
    const current = this.state.get(id);
    if (current === 'pending' || current === 'done') return false;
    this.state.set(id, 'pending');
    return true;
  }
  async complete(id: string) {
    this.state.set(id, 'done');
  }
  async release(id: string) {
    this.state.set(id, 'released');
  }
}

export const fixedClock = (iso = '2026-11-21T07:00:00.000Z') => ({ now: () => new Date(iso) });

/** A call stopped at the gate: `release` lets it through and resolves once the call has finished. */
export interface HeldCall {
  args: unknown[];
  release(): Promise<void>;
}

/**
 * Holds every call of the methods it wraps until the test releases it, so a test can choose the
 * order in which concurrent calls reach a fake. `open()` releases what waits and passes later
 * calls straight through.
 */
export class CallGate {
  private readonly held: HeldCall[] = [];
  private readonly waiters: ((call: HeldCall) => void)[] = [];
  private opened = false;

  wrap<A extends unknown[], R>(call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args: A) => {
      if (this.opened) return call(...args);
      return new Promise<R>((resolve, reject) => {
        let finished!: Promise<void>;
        const held: HeldCall = {
          args,
          release: () => {
            finished ??= call(...args).then(resolve, reject);
            return finished;
          },
        };
        const waiter = this.waiters.shift();
        if (waiter) waiter(held);
        else this.held.push(held);
      });
    };
  }

  /** The next call to reach the gate (already waiting, or the next to arrive). */
  next(): Promise<HeldCall> {
    const waiting = this.held.shift();
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async open(): Promise<void> {
    this.opened = true;
    await Promise.all(this.held.splice(0).map((call) => call.release()));
  }
}

export class FakeProfiles implements UserProfiles {
  readonly profiles = new Map<string, UserProfile>();
  readonly erased = new Set<string>();
  async get(userId: string): Promise<ProfileLookup> {
    if (this.erased.has(userId)) return { kind: 'erased' };
    const profile = this.profiles.get(userId);
    return profile ? { kind: 'profile', profile: structuredClone(profile) } : undefined;
  }
  async saveAccount(account: Parameters<UserProfiles['saveAccount']>[0]) {
    if (this.erased.has(account.userId)) return;
    const existing = this.profiles.get(account.userId);
    const { auth0Kyc, ...fields } = account;
    this.profiles.set(account.userId, {
      organizationName: null,
      organizationType: null,
      organizationId: null,
      auth0Kyc: null,
      auth0Unsettled: false,
      ...existing,
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      ...(auth0Kyc && !existing?.auth0Kyc ? { auth0Kyc } : {}),
    } as UserProfile);
  }
  async recordAuth0Kyc(
    userId: string,
    kyc: NonNullable<UserProfile['auth0Kyc']>,
    options: { settled: boolean },
  ) {
    const profile = this.profiles.get(userId);
    if (!profile || this.erased.has(userId)) return;
    profile.auth0Kyc = { ...kyc };
    if (options.settled) profile.auth0Unsettled = false;
  }
  async markAuth0Unsettled(userId: string) {
    const profile = this.profiles.get(userId);
    if (profile) profile.auth0Unsettled = true;
  }
}
