// What the public-form use cases need from storage. The submissions table is shared
// (docs/design.md section 6); each kind of record has its own key, and every record that holds an
// address keeps it in `email` (normalised) so a deletion request can find it through the byEmail index.

export interface WaitlistRecord {
  kind: 'waitlist';
  email: string;
  createdAt: string;
}

/** A message from one of the public message forms (investors, contact): one shape, two kinds. */
interface MessageRecord<Kind extends string> {
  kind: Kind;
  id: string;
  name: string;
  email: string;
  organization: string;
  message: string;
  createdAt: string;
}

export type InvestorInquiryRecord = MessageRecord<'investor_inquiry'>;
export type ContactMessageRecord = MessageRecord<'contact_message'>;

export interface CookieConsentRecord {
  kind: 'cookie_consent';
  consentId: string;
  revision: string;
  analytics: boolean;
  marketing: boolean;
  personalization: boolean;
  /** Minimised (IPv4 /24, IPv6 /48); no user agent is kept. */
  ipAddress: string;
  createdAt: string;
  /** Epoch seconds; the table's TTL removes the record then. */
  expiresAt: number;
}

/** `unconfirmed` until the address's owner confirms; only then `received` and the 30 days run. */
/** `cancelled`: the signed-in person withdrew their own request before it was carried out (ADR 0076). */
export type DeletionRequestStatus = 'unconfirmed' | 'received' | 'in_progress' | 'completed' | 'cancelled';

export interface DeletionRequestRecord {
  kind: 'deletion_request';
  requestId: string;
  email: string;
  name?: string | undefined;
  details?: string | undefined;
  status: DeletionRequestStatus;
  receivedAt: string;
  /** SHA-256 (hex) of the emailed confirmation token; removed when the request is confirmed. */
  confirmationTokenHash?: string | undefined;
  /** When the confirmation link stops working (ISO 8601). */
  confirmBy?: string | undefined;
  /** Set once the owner confirmed: by the emailed link, or by their access token. */
  confirmedAt?: string | undefined;
  confirmedBy?: 'email_link' | 'access_token' | undefined;
  /** YYYY-MM-DD (UTC), 30 days after `confirmedAt`; absent while unconfirmed. */
  dueBy?: string | undefined;
  /** Epoch seconds: the table's TTL removes a request nobody confirmed. */
  expiresAt?: number | undefined;
  /** The account that asked, for a signed-in person's own request (ADR 0076). */
  userId?: string | undefined;
  cancelledAt?: string | undefined;
}

export type SubmissionRecord =
  | WaitlistRecord
  | InvestorInquiryRecord
  | ContactMessageRecord
  | CookieConsentRecord
  | DeletionRequestRecord;

export interface SubmissionStore {
  /** Writes the record unless one with the same key exists; says which happened. */
  addOnce(record: SubmissionRecord): Promise<'added' | 'exists'>;
}

export interface DeletionConfirmations {
  /**
   * Confirms the request in one conditional write: only while it is unconfirmed, its token hash
   * matches and `now` is before `confirmBy`. False when any of these fails (nothing changes).
   */
  confirm(
    requestId: string,
    confirmation: { tokenHash: string; now: string; dueBy: string },
  ): Promise<DeletionRequestRecord | undefined>;
}

/**
 * The signed-in person's own deletion requests (ADR 0076): at most one pending per account, found
 * by the account's id (a pointer beside the request, under the same key prefix).
 */
export interface OwnDeletionRequests {
  /** The account's request that has not been carried out or cancelled, if any. */
  pendingOf(userId: string): Promise<DeletionRequestRecord | undefined>;
  /**
   * The request of this id if it is the account's and still pending: GET /api/me knows the id
   * from the pointer it read with the profile, and spends one read on it only then.
   */
  pendingById(userId: string, requestId: string): Promise<DeletionRequestRecord | undefined>;
  /**
   * Stores the request unless the account has a pending one: then nothing is written and the
   * pending one is answered.
   */
  addOwn(record: DeletionRequestRecord & { userId: string }): Promise<DeletionRequestRecord>;
  /**
   * Cancels the account's pending request of this id while it is `received`: `not_found` when the
   * account has no pending request of this id, `not_cancellable` once it is being carried out.
   */
  cancelOwn(
    userId: string,
    requestId: string,
    now: string,
  ): Promise<'cancelled' | 'not_found' | 'not_cancellable'>;
}

/** Random, unguessable ids (UUID v4 in production). */
export type IdGenerator = () => string;
