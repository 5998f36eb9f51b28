import type { DomainEvent } from '#contracts/events.ts';
import type { TableKey } from '#infra/data/tables.ts';

// What a function may touch. The CDK stack turns each grant into the narrowest IAM statement
// plus the environment variable that names the resource; the local gateway only sets the variables.
export type TableAccess =
  /** GetItem, Query, BatchGetItem. */
  | 'read'
  /** PutItem only (write-once records). */
  | 'put'
  /** Get/Query plus PutItem, never Update or Delete: append-only writers such as the consent ledger. */
  | 'readPut'
  /** Get/Query/Put/Update, no delete. */
  | 'readWrite'
  /** Put/Update only, no reads: writers of their own items, such as once-markers. */
  | 'putUpdate'
  /** Everything including DeleteItem (data-erasure tooling only). */
  | 'readWriteDelete';

export type SecretKey = 'auth0M2m' | 'personaApiKey' | 'personaWebhookSecret' | 'originVerify';

/** The environment variable that names (never holds) each secret. */
export const secretEnvVars: Record<SecretKey, string> = {
  auth0M2m: 'AUTH0_M2M_SECRET_ID',
  personaApiKey: 'PERSONA_API_KEY_SECRET_ID',
  personaWebhookSecret: 'PERSONA_WEBHOOK_SECRET_ID',
  originVerify: 'ORIGIN_VERIFY_SECRET_ID',
};

/** The detail-types of the bus (lambdas/contracts/events.ts); each has one source. */
export type EventDetailType = DomainEvent['detailType'];

export type Grant =
  | {
      kind: 'table';
      table: TableKey;
      access: TableAccess;
      indexes?: boolean;
      /** Only items whose partition key starts with this (IAM `dynamodb:LeadingKeys`). */
      keyPrefix?: string;
    }
  /** PutEvents of these detail-types (with their sources) only: IAM conditions on both. */
  | { kind: 'eventBus'; publishes: readonly EventDetailType[] }
  | { kind: 'email' }
  | { kind: 'secret'; secret: SecretKey };

export const table = (name: TableKey, access: TableAccess, indexes = false): Grant => ({
  kind: 'table',
  table: name,
  access,
  indexes,
});
/** Access to the items of one key prefix only, e.g. a function's own markers in a shared table. */
export const tableItems = (name: TableKey, access: TableAccess, keyPrefix: string): Grant => ({
  kind: 'table',
  table: name,
  access,
  keyPrefix,
});
export const eventBus = (...publishes: [EventDetailType, ...EventDetailType[]]): Grant => ({
  kind: 'eventBus',
  publishes,
});
export const email: Grant = { kind: 'email' };
export const secret = (name: SecretKey): Grant => ({ kind: 'secret', secret: name });
