import type { ConsentMethod, ConsentPurpose } from '#contracts/consent-documents.ts';

export type { ConsentMethod, ConsentPurpose };

import type { DomainEvent } from '#contracts/events.ts';
import type { KycStatus, Role } from '#contracts/kyc.ts';
import type { ApiLocale } from '#contracts/locale.ts';
import type { OrganizationRole, OrganizationType } from '#contracts/organization.ts';

// The capabilities use cases need, shared across features. Adapters in lambdas/adapters
// implement them with real SDK clients; tests use in-memory fakes. The domain imports no SDK.
// Feature-specific ports live beside their use cases (lambdas/domain/<feature>/ports.ts).

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

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

/** An organization at the identity provider (Auth0 Organizations; ADR 0083). */
export interface DirectoryOrganization {
  id: string;
  /** The unique lowercase name (`/authorize?organization=` may name it). */
  name: string;
  metadata: Record<string, string>;
}

export class OrganizationNameTakenError extends Error {}

/**
 * The product's own record of an organization (ADR 0083, like the profile of ADR 0059): what the
 * signed-in screens show of it, without asking Auth0. Written by the registration that created it.
 */
export interface OrganizationRecord {
  /** Auth0's organization id, the `org_id` of its members' tokens. */
  organizationId: string;
  /** The organization's name as registered (Auth0's `display_name`). */
  displayName: string;
  organizationType: OrganizationType;
  /** The responsible person who registered it (`sub`). */
  registeredBy: string;
  /**
   * Their address (normalised): the submissions table's byEmail index then finds the record, so
   * an erasure of that address deletes it with the person's other records (ADR 0077, 0083).
   */
  email: string;
  createdAt: string;
}

export interface OrganizationRecords {
  /** Stores the record unless one exists for the organization; a repeat changes nothing. */
  saveOnce(record: OrganizationRecord): Promise<void>;
  get(organizationId: string): Promise<OrganizationRecord | undefined>;
}

/** The identity provider's organizations (Auth0 Management API), as registration uses them. */
export interface OrganizationDirectory {
  /** Throws `OrganizationNameTakenError` when the name is taken (also by our own earlier create). */
  createOrganization(input: {
    name: string;
    displayName: string;
    metadata: Record<string, string>;
  }): Promise<DirectoryOrganization>;
  findOrganizationByName(name: string): Promise<DirectoryOrganization | undefined>;
  /** Makes the user a member holding these roles (tenant roles, by name); repeating it changes nothing. */
  addMember(organizationId: string, userId: string, roles: readonly OrganizationRole[]): Promise<void>;
}

/** An Auth0 organization invitation as created (ADR 0084). */
export interface DirectoryInvitation {
  /** `uinv_…` */
  invitationId: string;
  /** The link the invitation email carries (the application's login URI with `invitation` and `organization`). */
  invitationUrl: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: Auth0 refuses the link after this. */
  expiresAt: string;
}

/**
 * What the team page changes at the identity provider (Auth0 Management API, ADR 0084), with the
 * organization-team application's scopes only. Every method is safe to repeat: Auth0 answers a
 * delete of what is not there with 204, and an add of a held role changes nothing.
 */
export interface OrganizationTeamDirectory {
  /**
   * An invitation to join as `role`, valid `ttlSeconds` (Auth0 sends its email: "<inviter> has
   * invited you to join <organization>"), for the web application's client and the database
   * connection. Its `app_metadata` is what registration writes (`role: 'user'` and the
   * organization's type): Auth0 gives it to the user the invitation creates, and the post-login
   * Action lets in only accounts that carry it.
   */
  createInvitation(input: {
    organizationId: string;
    organizationType: OrganizationType;
    inviterName: string;
    email: string;
    role: OrganizationRole;
    ttlSeconds: number;
  }): Promise<DirectoryInvitation>;
  /** Deletes a pending invitation; one that is gone already (accepted, deleted) is not an error. */
  deleteInvitation(organizationId: string, invitationId: string): Promise<void>;
  /** Gives the member `role` and takes away the other organization roles they held. */
  setMemberRole(organizationId: string, userId: string, role: OrganizationRole): Promise<void>;
  /** Ends the membership: Auth0 then refuses the user's logins through the organization. */
  removeMember(organizationId: string, userId: string): Promise<void>;
}

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
  /**
   * Merges top-level keys; `null` deletes a key. Never sends an empty patch (then answers
   * undefined). Answers the app_metadata Auth0 holds once the patch is applied.
   */
  updateAppMetadata(
    userId: string,
    patch: { [K in keyof AppMetadata]?: AppMetadata[K] | null },
  ): Promise<AppMetadata | undefined>;
  /** A single-use link that lets the user set a password; never returned to API callers. */
  createPasswordChangeTicket(userId: string, resultUrl: string): Promise<string>;
  /** False when the user does not exist (any more). */
  sendVerificationEmail(userId: string): Promise<boolean>;
  delete(userId: string): Promise<void>;
}

/**
 * The product's own record of an account (ADR 0059): written at registration, and by the KYC sync
 * for an account created another way, so that no signed-in screen needs the identity provider's
 * Management API. `auth0Kyc` is what the sync last saw Auth0's app_metadata hold; `auth0Unsettled`
 * says a patch of it timed out (it may still land), so the next sync must read Auth0 first.
 */
export interface UserProfile {
  userId: string;
  email: string;
  name: string;
  organizationName: string | null;
  organizationType: OrganizationType | null;
  /** The account's Auth0 organization (ADR 0083); null for an account registered before them. */
  organizationId: string | null;
  /**
   * The person's role there (ADR 0084): written when an invitee joins and when an admin changes
   * it; a registrant's profile has none and is its organization's first `org_admin`.
   */
  organizationRole: OrganizationRole | null;
  /** Set when an `org_admin` removed the person from the organization: their session ends (ADR 0084). */
  organizationRemovedAt: string | null;
  auth0Kyc: { status: KycStatus; updatedAt: string } | null;
  auth0Unsettled: boolean;
  /** The language the person registered in (issue 28); absent on accounts registered before. */
  registrationLocale?: ApiLocale;
  /** Their latest choice, recorded with each consent that names its language (issue 28). */
  preferredLocale?: ApiLocale;
}

/** A profile, an account the product erased (its tokens may still be valid), or nothing known. */
export type ProfileLookup =
  | {
      kind: 'profile';
      profile: UserProfile;
      /**
       * The id the account's pending-deletion pointer names (ADR 0076), read in the same request
       * as the profile; whether that request is still pending is the deletion store's to say.
       */
      pendingDeletionRequestId?: string;
    }
  | { kind: 'erased' }
  | undefined;

export interface UserProfiles {
  get(userId: string): Promise<ProfileLookup>;
  /**
   * Creates the profile or replaces its account fields; the sync's mirror is left as it is. An
   * `auth0Kyc` given (what Auth0's own answer said, at the account's creation) is recorded only
   * when the profile has no record of Auth0 yet, so the first sync knows without reading Auth0
   * (ADR 0062); `updatedAt` is empty when Auth0 holds no `kyc_updated_at`.
   */
  saveAccount(
    account: Omit<
      UserProfile,
      | 'auth0Kyc'
      | 'auth0Unsettled'
      | 'organizationName'
      | 'organizationType'
      | 'organizationId'
      | 'organizationRole'
      | 'organizationRemovedAt'
      | 'preferredLocale'
    > &
      Partial<Pick<UserProfile, 'organizationName' | 'organizationType' | 'organizationId'>> & {
        auth0Kyc?: { status: KycStatus; updatedAt: string };
      },
  ): Promise<void>;
  /** What Auth0 held after a patch answered; `settled` clears `auth0Unsettled` (after a fresh read). */
  recordAuth0Kyc(
    userId: string,
    kyc: { status: KycStatus; updatedAt: string },
    options: { settled: boolean },
  ): Promise<void>;
  markAuth0Unsettled(userId: string): Promise<void>;
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

// --- Limits and once-only side effects (registration, account, data rights, emails) -----------

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** At most `limit` (default 1) `action`s per window per subject; the window opens with the first. */
export interface RateLimiter {
  acquire(action: string, subject: string, windowSeconds: number, limit?: number): Promise<RateLimitResult>;
  /**
   * Gives back one action of the open window: what it allowed did not happen (the send could not be
   * queued), so the person is not told to wait for something they never got.
   */
  release(action: string, subject: string): Promise<void>;
}

/** Marks that an event's side effect (an email) happened, so a redelivery does not repeat it. */
export interface OnceMarker {
  /** True when this call took the marker; false when it was taken already (done or in progress). */
  take(id: string): Promise<boolean>;
  /** The side effect happened. */
  complete(id: string): Promise<void>;
  /** The side effect failed: let a retry take the marker again. */
  release(id: string): Promise<void>;
}

// --- Consent ledger (docs/design.md section 6) -------------------------------------------------------

/** What a caller supplies; the ledger adds sequence, time, previous hash and hash. */
export interface ConsentEntry {
  subjectId: string;
  issuer: string;
  purpose: ConsentPurpose;
  action: 'granted' | 'withdrawn';
  /** Each statement shown and the value the person gave it. */
  statements: Record<string, boolean>;
  documentVersion: string;
  documentSha256: string;
  locale: string;
  method: ConsentMethod;
  requestId: string;
  /** Minimised before storing (browser family and major version). */
  userAgent: string;
  /** Minimised before storing (IPv4 /24, IPv6 /48). */
  ipAddress: string;
}

export interface ConsentRecord extends ConsentEntry {
  consentId: string;
  sequence: number;
  recordedAt: string;
  previousHash: string | null;
  hash: string;
  /**
   * Epoch seconds after which the record is past its retention (the end of the relationship plus
   * the contract retention period); absent while the relationship lasts. Not hashed.
   */
  expiresAt?: number;
}

export interface AppendOptions {
  /**
   * Append only as this sequence (the chain as the caller read it, plus one), in one attempt: if
   * another write took it, throw `ConsentChainMovedError` (the caller reads again and decides again).
   */
  sequence?: number;
  /**
   * The subject's latest language choice (issue 28): the consent route's ledger records it on their
   * profile (`preferredLocale`) in the same write as the record, when they have a profile; the later
   * emails follow it. Other ledgers ignore it.
   */
  languageChoice?: ApiLocale;
}

export interface ConsentLedger {
  /** Appends to the subject's hash chain with a conditional write; never updates or deletes. */
  append(entry: ConsentEntry, options?: AppendOptions): Promise<ConsentRecord>;
  listBySubject(subjectId: string): Promise<ConsentRecord[]>;
  listByPurpose(purpose: ConsentPurpose, fromIso: string, toIso: string): Promise<ConsentRecord[]>;
}

// --- KYC state, as other features read it ----------------------------------------------------

/**
 * The KYC feature's per-user state (`DynamoDbKycStateReader` reads it; the KYC feature owns the
 * writes); `get-me` and `sync-kyc-status` read it through this port.
 */
export interface KycState {
  status: KycStatus;
  updatedAt: string;
  inquiryId: string | null;
  /** The current decision's reason code (`lambdas/contracts/kyc-reasons.ts`); null while undecided. */
  reasonCode: string | null;
  /** Attempts used: 0 before the first inquiry, 1 for the first, +1 for each new attempt allowed. */
  attempt: number;
  /** A reviewer allowed a new attempt after the rejection, and the person has not started it. */
  newAttemptAllowed: boolean;
}

export interface KycStateReader {
  getState(userId: string): Promise<KycState | undefined>;
}
