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
  complete(requestId: string, outcome: ErasureOutcome): Promise<void>;
}

export interface SubmissionsByEmail {
  listByEmail(email: string): Promise<SubmissionRef[]>;
  /** Deleting a record that is already gone is not an error. */
  delete(key: { pk: string; sk: string }): Promise<void>;
}

/** `delete` must treat an unknown user as already deleted. */
export type ErasableUserDirectory = Pick<UserDirectory, 'findByEmail' | 'delete'>;

export interface KycRecords {
  getState(userId: string): Promise<{ status: string; inquiryId: string | null } | undefined>;
}

/** Structurally satisfied by the shared `ConsentLedger`. */
export interface ConsentProof {
  listBySubject(subjectId: string): Promise<{ purpose: string; recordedAt: string }[]>;
}

export interface InquiryRedactor {
  /** Asks Persona to redact the inquiry's personal data; redacting twice is not an error. */
  redactInquiry(inquiryId: string): Promise<void>;
}
