import type { OrganizationType } from '#contracts/organization.ts';

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
  createdAt: string;
}

export interface RegistrationStore {
  getProgress(email: string): Promise<RegistrationProgress | undefined>;
  saveProgress(progress: RegistrationProgress): Promise<void>;
  /** Stores the registration unless one exists for the user already; returns the stored one. */
  saveRegistrationOnce(record: RegistrationRecord): Promise<RegistrationRecord>;
  getRegistration(userId: string): Promise<RegistrationRecord | undefined>;
}

/** How long the password link in the login-instructions email works (the adapter sets the ttl). */
export const passwordTicketTtlDays = 3;
