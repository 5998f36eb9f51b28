import type { DomainEvent } from '#contracts/events.ts';
import type { KycStatus, Role } from '#contracts/kyc.ts';
import type { OrganizationType } from '#contracts/registration.ts';

// The capabilities use cases need, shared across features. Adapters in lambdas/adapters
// implement them with real SDK clients; tests use in-memory fakes. The domain imports no SDK.
// Feature-specific ports live beside their use cases (lambdas/domain/<feature>/ports.ts).

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface WaitlistEntry {
  email: string;
  joinedAt: string;
}

export interface WaitlistStore {
  /** Stores the entry unless the address is already on the list; says which happened. */
  addOnce(entry: WaitlistEntry): Promise<'added' | 'exists'>;
}

/** What the product keeps in the identity provider's `app_metadata` (flat keys only). */
export interface AppMetadata {
  role?: Role;
  organization_type?: OrganizationType;
  kyc_status?: KycStatus;
  kyc_updated_at?: string;
}

export interface DirectoryUser {
  userId: string;
  email: string;
  emailVerified: boolean;
  name: string;
  appMetadata: AppMetadata;
}

export class UserAlreadyExistsError extends Error {}

/** The identity provider's user database (Auth0 Management API). */
export interface UserDirectory {
  get(userId: string): Promise<DirectoryUser | undefined>;
  findByEmail(email: string): Promise<DirectoryUser | undefined>;
  /** Throws `UserAlreadyExistsError` when the email already has an account. */
  create(input: {
    email: string;
    name: string;
    password: string;
    appMetadata: AppMetadata;
  }): Promise<DirectoryUser>;
  /** Merges top-level keys; `null` deletes a key. Never sends an empty patch. */
  updateAppMetadata(
    userId: string,
    patch: { [K in keyof AppMetadata]?: AppMetadata[K] | null },
  ): Promise<void>;
  /** A single-use link that lets the user set a password; never returned to API callers. */
  createPasswordChangeTicket(userId: string, resultUrl: string): Promise<string>;
  sendVerificationEmail(userId: string): Promise<void>;
  delete(userId: string): Promise<void>;
}

export interface EventPublisher {
  /** Resolves only when every event was accepted by the bus; throws otherwise. */
  publish(events: DomainEvent[]): Promise<void>;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}
