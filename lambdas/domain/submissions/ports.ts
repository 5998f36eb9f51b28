// What the public-form use cases need from storage. The submissions table is shared (DESIGN
// section 6); each kind of record has its own key, and every record that holds an address keeps it
// in `email` (normalised) so a deletion request can find it through the byEmail index.

export interface WaitlistRecord {
  kind: 'waitlist';
  email: string;
  createdAt: string;
}

export interface InvestorInquiryRecord {
  kind: 'investor_inquiry';
  id: string;
  name: string;
  email: string;
  organization: string;
  message: string;
  createdAt: string;
}

export interface ContactMessageRecord {
  kind: 'contact_message';
  id: string;
  name: string;
  email: string;
  organization: string;
  message: string;
  createdAt: string;
}

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

export type DeletionRequestStatus = 'received' | 'in_progress' | 'completed';

export interface DeletionRequestRecord {
  kind: 'deletion_request';
  requestId: string;
  email: string;
  name?: string | undefined;
  details?: string | undefined;
  status: DeletionRequestStatus;
  receivedAt: string;
  /** YYYY-MM-DD (UTC). */
  dueBy: string;
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

/** Random, unguessable ids (UUID v4 in production). */
export type IdGenerator = () => string;
