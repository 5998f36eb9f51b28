// The DynamoDB tables of docs/design.md section 6, declared once. Plain data: the CDK data construct
// (infra/data/data-tables.ts) and the local bootstrap (local/dynamodb.ts) both build from it,
// and handlers find a table's name in the environment variable named here.

export type AttributeType = 'S' | 'N';

export interface KeyDef {
  name: string;
  type: AttributeType;
}

export interface IndexDef {
  name: string;
  partitionKey: KeyDef;
  sortKey?: KeyDef;
}

export interface TableDef {
  /** Logical name: stable, used for construct ids, `stack.json` and tests. */
  logicalName: string;
  /** Environment variable that carries the generated physical name to a function. */
  envVar: string;
  purpose: string;
  partitionKey: KeyDef;
  sortKey?: KeyDef;
  indexes: IndexDef[];
  /** Attribute holding an epoch-seconds expiry, if items expire. */
  ttlAttribute?: string;
}

export const tables = {
  consentLedger: {
    logicalName: 'ConsentLedger',
    envVar: 'CONSENT_LEDGER_TABLE',
    purpose:
      'Append-only consent records with a per-subject hash chain; read by auditors. The sort key is the ' +
      "subject's record sequence, so a conditional put cannot fork the chain. Records expire (expiresAt) " +
      'once the retention period after the end of the relationship has passed (ADR 0031).',
    partitionKey: { name: 'subjectId', type: 'S' },
    sortKey: { name: 'sequence', type: 'N' },
    indexes: [
      {
        name: 'byPurposeAndTime',
        partitionKey: { name: 'purpose', type: 'S' },
        sortKey: { name: 'recordedAt', type: 'S' },
      },
    ],
    ttlAttribute: 'expiresAt',
  },
  kycState: {
    logicalName: 'KycState',
    envVar: 'KYC_STATE_TABLE',
    purpose:
      'Per-user KYC status, transition history and processed webhook event ids (single-table design; ' +
      "event ids expire after 45 days, a user's items once the KYC retention period after the relationship " +
      'has passed).',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        name: 'byStatus',
        partitionKey: { name: 'queueStatus', type: 'S' },
        sortKey: { name: 'updatedAt', type: 'S' },
      },
    ],
    ttlAttribute: 'expiresAt',
  },
  submissions: {
    logicalName: 'Submissions',
    envVar: 'SUBMISSIONS_TABLE',
    purpose:
      'Registrations, waitlist sign-ups, investor inquiries, contact messages, deletion requests, cookie ' +
      'consents and rate-limit counters. The byEmail index lets a deletion request find every record of an address.',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        name: 'byEmail',
        partitionKey: { name: 'email', type: 'S' },
        sortKey: { name: 'pk', type: 'S' },
      },
    ],
    ttlAttribute: 'expiresAt',
  },
  adminAuditLog: {
    logicalName: 'AdminAuditLog',
    envVar: 'ADMIN_AUDIT_TABLE',
    purpose:
      "The admin audit trail (ADR 0078): reviewers' decisions and reversals, new attempts allowed, erasure " +
      'runs, role changes and provisioning applies, as one append-only hash chain (partition `chain`, sort ' +
      'key the sequence, so a conditional put cannot fork it); read by auditors. byTime serves an export of ' +
      'a period, byTarget the trail of one verification. Entries expire five years after they are written.',
    partitionKey: { name: 'chain', type: 'S' },
    sortKey: { name: 'sequence', type: 'N' },
    indexes: [
      {
        name: 'byTime',
        partitionKey: { name: 'chain', type: 'S' },
        sortKey: { name: 'recordedAt', type: 'S' },
      },
      {
        name: 'byTarget',
        partitionKey: { name: 'targetId', type: 'S' },
        sortKey: { name: 'recordedAt', type: 'S' },
      },
    ],
    ttlAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDef>;

export type TableKey = keyof typeof tables;

export const tableKeys = Object.keys(tables) as TableKey[];

/**
 * The partition-key prefix of the account profiles in the submissions table (ADR 0059): the KYC
 * sync may write those items and no other there.
 */
export const profileKeyPrefix = 'PROFILE#';

/**
 * The other partition-key prefixes of the submissions table that a function is granted alone
 * (ADR 0072): the functions anyone can call touch only these.
 */
export const submissionKeyPrefixes = {
  /** Data-deletion requests (`DELETION#<requestId>`). */
  deletionRequest: 'DELETION#',
  /** The rate limiter's windows (`RATE#<action>#<subject>`). */
  rateLimit: 'RATE#',
  /** A registration of an account (`REGISTRATION#<sub>`), read with the profile. */
  registration: 'REGISTRATION#',
  /** An organization registration created (`ORGANIZATION#<Auth0 org_id>`; ADR 0083). */
  organization: 'ORGANIZATION#',
  /** An organization's service requests (`SERVICE_REQUEST#<org_id>`, one item per quick action; ADR 0088). */
  serviceRequest: 'SERVICE_REQUEST#',
  /** The once-markers of the operations emails (`NOTIFIED#<id>`). */
  onceMarker: 'NOTIFIED#',
} as const;
