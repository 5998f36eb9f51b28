import type { UserDirectory } from '../ports.ts';
import type { DeletionRequestRecord } from '../submissions/ports.ts';

// What erasure needs. The operator's script wires these to DynamoDB, the Auth0 Management API and
// Persona with operator credentials; no Lambda role may delete.

/** A record of the submissions table, as the byEmail index returns it. */
export interface SubmissionRef {
  pk: string;
  sk: string;
  kind: string;
  createdAt?: string | undefined;
}

export interface DeletedEntry {
  store: 'submissions' | 'identityProvider' | 'persona';
  /** The record's key (`pk|sk`), the Auth0 user id or the Persona inquiry id. */
  key: string;
  kind: string;
  action: 'deleted' | 'redacted';
}

export interface KeptEntry {
  store: 'submissions' | 'consentLedger' | 'kycState';
  key: string;
  kind: string;
  count?: number;
  reason: string;
  /** When the kept records expire (ISO): the end of the relationship plus their retention period. */
  retainUntil?: string;
}

export interface ErasureOutcome {
  deleted: DeletedEntry[];
  kept: KeptEntry[];
  completedAt: string;
}

export interface StoredDeletionRequest extends DeletionRequestRecord {
  /** Written before anything is deleted, so a rerun after a failure still knows the subject. */
  userIds?: string[] | undefined;
  planned?: DeletedEntry[] | undefined;
  startedAt?: string | undefined;
  deleted?: DeletedEntry[] | undefined;
  kept?: KeptEntry[] | undefined;
  completedAt?: string | undefined;
}

export interface DeletionRequests {
  get(requestId: string): Promise<StoredDeletionRequest | undefined>;
  markInProgress(
    requestId: string,
    progress: { userIds: string[]; planned: DeletedEntry[]; startedAt: string },
  ): Promise<void>;
  /**
   * Writes the report; `expiresAt` (epoch seconds, the table's TTL attribute): when the answered
   * request itself goes (the retention table's `deletionRequests` row).
   */
  complete(requestId: string, outcome: ErasureOutcome, expiresAt: number): Promise<void>;
}

export interface SubmissionsByEmail {
  listByEmail(email: string): Promise<SubmissionRef[]>;
  /** Deleting a record that is already gone is not an error. */
  delete(key: { pk: string; sk: string }): Promise<void>;
}

/** The records stored with an address, whole, for the person's export (ADR 0076). */
export interface SubmissionsOfAddress {
  itemsByEmail(email: string): Promise<Record<string, unknown>[]>;
}

/** `delete` must treat an unknown user as already deleted. */
export type ErasableUserDirectory = Pick<UserDirectory, 'findByEmail' | 'delete'>;

/** The KYC records as they are, expired or not: every inquiry must still be redacted. */
export interface KycRecords {
  getRecord(userId: string): Promise<{ status: string; inquiryId: string | null } | undefined>;
  /** Every inquiry recorded against the person (`INQUIRY#` items in their partition, ADR 0058). */
  listInquiries(userId: string): Promise<{ inquiryId: string }[]>;
}

/** Structurally satisfied by the shared `ConsentLedger`. */
export interface ConsentProof {
  listBySubject(subjectId: string): Promise<{ purpose: string; recordedAt: string }[]>;
}

/**
 * Sets the expiry (`expiresAt`, epoch seconds, the tables' TTL attribute) of what is kept when the
 * relationship ends. Operator credentials only: the one update the append-only ledger allows, on
 * that one attribute. An expiry already set is left as it is, so a rerun cannot extend it.
 */
export interface RetentionSchedule {
  /** Every consent-ledger record of the subject. */
  expireConsentRecords(subjectId: string, expiresAt: number): Promise<void>;
  /** The user's KYC state and history, and the items of the given inquiries. */
  expireKycRecords(userId: string, inquiryIds: string[], expiresAt: number): Promise<void>;
}

/**
 * The signed-in screens answer from the product's own records and the token (ADR 0059): an erased
 * account leaves a marker without personal data, so its still-valid tokens see "not found".
 */
export interface ErasedAccounts {
  markErased(userId: string, expiresAt: number): Promise<void>;
}

export interface InquiryRedactor {
  /** Asks Persona to redact the inquiry's personal data; redacting twice is not an error. */
  redactInquiry(inquiryId: string): Promise<void>;
}
