import type { DomainEvent } from '#contracts/events.ts';
import type { TableKey } from '#lambdas/tables.ts';

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
  /** UpdateItem only: a conditional change of an item someone else wrote (a confirmation). */
  | 'update'
  /** Everything including DeleteItem (data-erasure tooling only). */
  | 'readWriteDelete';

/**
 * The Auth0 machine-to-machine applications: one per set of Management API scopes, each with its
 * own credentials in its own secret, so a function (or script) holds only the scopes its calls
 * need (ADR 0034). Provisioning creates each application with exactly these scopes, and the local
 * identity provider grants the same. `read:users` is GET /users/{id} and /users-by-email.
 */
export const auth0M2mScopes = {
  /**
   * Registration: look the email up, create the user, the login-instructions ticket; create the
   * organization (found by name on a retry whose create answer was lost), make the user its member
   * with the `org_admin` role, whose id `GET /roles` finds (ADR 0083).
   */
  auth0Registration: [
    'read:users',
    'create:users',
    'create:user_tickets',
    'create:organizations',
    'read:organizations',
    'create:organization_members',
    'create:organization_member_roles',
    'read:roles',
  ],
  /** notify-kyc-decision: read a user without a profile (the decision email's address; ADR 0059). */
  auth0ReadUsers: ['read:users'],
  /** deliver-verification-email: a verification-email job (needs update:users), nothing read. */
  auth0VerificationEmail: ['update:users'],
  /** sync-kyc-status: read the user, PATCH app_metadata only. */
  auth0KycSync: ['read:users', 'update:users_app_metadata'],
  /**
   * The team page's changes (ADR 0084): invite (the invitation carries the role's id, which
   * `GET /roles` finds), resend and revoke (delete, create), change a member's role, remove a member.
   * Nothing about users: the product's own records say who is a member.
   */
  auth0OrganizationTeam: [
    'create:organization_invitations',
    'delete:organization_invitations',
    'create:organization_member_roles',
    'delete:organization_member_roles',
    'delete:organization_members',
    'read:roles',
  ],
  /** scripts/data-erase: find the user by email, delete it. */
  auth0Erasure: ['read:users', 'delete:users'],
} as const satisfies Record<string, readonly string[]>;

export type Auth0M2mKey = keyof typeof auth0M2mScopes;
export const auth0M2mKeys = Object.keys(auth0M2mScopes) as Auth0M2mKey[];
export const isAuth0M2mKey = (key: string): key is Auth0M2mKey => Object.hasOwn(auth0M2mScopes, key);

export type SecretKey = Auth0M2mKey | 'personaApiKey' | 'personaWebhookSecret' | 'originVerify';

/** The environment variable that names (never holds) each secret. */
export const secretEnvVars: Record<SecretKey, string> = {
  auth0Registration: 'AUTH0_REGISTRATION_SECRET_ID',
  auth0ReadUsers: 'AUTH0_READ_USERS_SECRET_ID',
  auth0VerificationEmail: 'AUTH0_VERIFICATION_EMAIL_SECRET_ID',
  auth0KycSync: 'AUTH0_KYC_SYNC_SECRET_ID',
  auth0Erasure: 'AUTH0_ERASURE_SECRET_ID',
  auth0OrganizationTeam: 'AUTH0_ORGANIZATION_TEAM_SECRET_ID',
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
      /**
       * Only items whose partition key starts with one of these (IAM `dynamodb:LeadingKeys`), in one
       * statement: a BatchGetItem naming keys of two prefixes needs both in the same condition.
       */
      keyPrefixes?: readonly string[];
    }
  /** PutEvents of these detail-types (with their sources) only: IAM conditions on both. */
  | { kind: 'eventBus'; publishes: readonly EventDetailType[] }
  | { kind: 'email' }
  | { kind: 'secret'; secret: SecretKey }
  /** Publish (AppSync Events' HTTP publish, AWS_IAM) to the channels of one namespace of the realtime API. */
  | { kind: 'realtimePublish'; namespace: string };

export const table = (name: TableKey, access: TableAccess, indexes = false): Grant => ({
  kind: 'table',
  table: name,
  access,
  indexes,
});
/** Access to the items of these key prefixes only, e.g. a function's own markers in a shared table. */
export const tableItems = (
  name: TableKey,
  access: TableAccess,
  ...keyPrefixes: [string, ...string[]]
): Grant => ({
  kind: 'table',
  table: name,
  access,
  keyPrefixes,
});
export const eventBus = (...publishes: [EventDetailType, ...EventDetailType[]]): Grant => ({
  kind: 'eventBus',
  publishes,
});
export const email: Grant = { kind: 'email' };
export const realtimePublish = (namespace: string): Grant => ({ kind: 'realtimePublish', namespace });

export const secret = (name: SecretKey): Grant => ({ kind: 'secret', secret: name });
