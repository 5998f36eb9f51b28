import type { ApiLocale } from '#contracts/locale.ts';
import type { OrganizationType } from '#contracts/organization.ts';
import type { RegistrationRequest } from '#contracts/registration.ts';

// What registration keeps in the submissions table. Two items:
// - progress, keyed by the normalised email: which steps of a registration are done, so a
//   retried request completes the missing ones instead of repeating the done ones;
// - the registration itself, keyed by the Auth0 user id (GET /api/me reads the organization).

export interface RegistrationProgress {
  /** Normalised (trimmed, lower-case). */
  email: string;
  startedAt: string;
  /** Set as soon as the identity provider has answered with (or we found) the user. */
  userId?: string;
  /**
   * The Auth0 organization's name, chosen (with its random suffix) and saved before the create:
   * a retry whose create answer was lost finds the organization by it (ADR 0083).
   */
  auth0OrganizationName?: string;
  /** Set once Auth0 has answered with (or we found) the organization. */
  organizationId?: string;
  /** The user is its member with the `org_admin` role. */
  organizationJoined?: boolean;
  agreementsRecorded?: boolean;
  loginEmailSent?: boolean;
  eventPublished?: boolean;
  completedAt?: string;
}

export interface RegistrationRecord {
  userId: string;
  email: string;
  responsibleName: string;
  responsibleTitle: string;
  responsiblePhone: string;
  organizationName: string;
  organizationUrl: string;
  organizationType: OrganizationType;
  /** The Auth0 organization registration created (ADR 0083); absent on older registrations. */
  organizationId?: string;
  /** The language the person registered in (issue 28); absent on older registrations. */
  locale?: ApiLocale;
  createdAt: string;
}

/** Where a request came from: the agreements' ledger records keep it (docs/design.md section 6). */
export interface RequestContext {
  requestId: string;
  userAgent: string;
  ipAddress: string;
  /**
   * The registration's language (`negotiateLocale` of its `Accept-Language`; issue 28): the
   * agreement texts the wizard showed, and the emails' language. Requests stored before were 'en'.
   */
  locale: string;
}

/**
 * A registration as the API accepted it, before any account work: what the asynchronous step
 * needs to finish it. `{pk:'REGISTRATION_REQUEST#<id>'}`, with `email` for the byEmail index and a
 * TTL (`expiresAt`), since it is only needed while the event may still be delivered.
 */
export interface RegistrationRequestRecord {
  registrationId: string;
  /** Normalised. */
  email: string;
  /** The form as sent, without the honeypot. */
  request: Omit<RegistrationRequest, 'website'>;
  context: RequestContext;
  receivedAt: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export interface RegistrationStore {
  saveRequest(record: RegistrationRequestRecord): Promise<void>;
  getRequest(registrationId: string): Promise<RegistrationRequestRecord | undefined>;
  getProgress(email: string): Promise<RegistrationProgress | undefined>;
  saveProgress(progress: RegistrationProgress): Promise<void>;
  /** Stores the registration unless one exists for the user already; returns the stored one. */
  saveRegistrationOnce(record: RegistrationRecord): Promise<RegistrationRecord>;
  getRegistration(userId: string): Promise<RegistrationRecord | undefined>;
}

/** How long the password link works: the email states it and the directory adapter sets the ticket's ttl from it. */
export const passwordTicketTtlDays = 3;
