import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { type ApiLocale, isApiLocale } from '#contracts/locale.ts';
import {
  type OrganizationRole,
  type OrganizationType,
  organizationRoles,
  organizationTypes,
} from '#contracts/organization.ts';
import type { ErasedAccounts } from '#lambdas/domain/data-rights/ports.ts';
import type { ProfileLookup, UserProfile, UserProfiles } from '#lambdas/domain/ports.ts';
import { profileKey } from './dynamodb-profile-key.ts';
import { registrationKey } from './dynamodb-registration-store.ts';
import { ownDeletionPointerKey } from './dynamodb-submission-store.ts';

// The product's own account records (ADR 0059), in the submissions table beside the registration:
// `{pk: 'PROFILE#<sub>', sk: 'PROFILE'}` with `email`, so the byEmail index finds it for a data
// deletion request (which deletes it: a profile has no retention ground). An account registered
// before profiles existed has only its registration item; one read answers both.

export { profileKey };

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** An item's language attribute as a profile field: left out when absent or not one of ours. */
const localeField = <K extends string>(key: K, value: unknown): { [P in K]?: ApiLocale } =>
  (isApiLocale(value) ? { [key]: value } : {}) as { [P in K]?: ApiLocale };

function toProfile(item: Record<string, unknown>, userId: string): UserProfile {
  const status = oneOf<KycStatus>(kycStatuses, item.auth0KycStatus);
  return {
    userId,
    email: text(item.email),
    name: text(item.name),
    organizationName: typeof item.organizationName === 'string' ? item.organizationName : null,
    organizationType: oneOf<OrganizationType>(organizationTypes, item.organizationType) ?? null,
    organizationId: typeof item.organizationId === 'string' ? item.organizationId : null,
    // A registrant's profile names no role: they are their organization's first admin.
    organizationRole:
      oneOf<OrganizationRole>(organizationRoles, item.organizationRole) ??
      (typeof item.organizationId === 'string' ? 'org_admin' : null),
    organizationRemovedAt: typeof item.organizationRemovedAt === 'string' ? item.organizationRemovedAt : null,
    auth0Kyc: status ? { status, updatedAt: text(item.auth0KycUpdatedAt) } : null,
    auth0Unsettled: item.auth0Unsettled === true,
    ...localeField('registrationLocale', item.registrationLocale),
    ...localeField('preferredLocale', item.preferredLocale),
  };
}

/** A registration item read as the profile it implies (accounts registered before profiles). */
function fromRegistration(item: Record<string, unknown>, userId: string): UserProfile {
  return {
    userId,
    email: text(item.email),
    name: text(item.responsibleName),
    organizationName: typeof item.organizationName === 'string' ? item.organizationName : null,
    organizationType: oneOf<OrganizationType>(organizationTypes, item.organizationType) ?? null,
    organizationId: typeof item.organizationId === 'string' ? item.organizationId : null,
    organizationRole: typeof item.organizationId === 'string' ? 'org_admin' : null,
    organizationRemovedAt: null,
    auth0Kyc: null,
    auth0Unsettled: false,
    ...localeField('registrationLocale', item.locale),
  };
}

export class DynamoDbUserProfiles implements UserProfiles, ErasedAccounts {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * An update whose condition fails changes nothing, on purpose: an erased account is not brought
   * back, and the sync's mirror is not written without a profile.
   */
  private async update(input: Omit<UpdateCommandInput, 'TableName'>): Promise<void> {
    try {
      await this.client.send(new UpdateCommand({ TableName: this.tableName, ...input }));
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * One strongly consistent BatchGetItem: the profile, for older accounts the registration, and
   * the pointer to the account's pending deletion request (GET /api/me stays at three reads).
   */
  async get(userId: string): Promise<ProfileLookup> {
    const pointerKey = ownDeletionPointerKey(userId);
    const keys = [profileKey(userId), registrationKey(userId), pointerKey];
    let items: Record<string, unknown>[] = [];
    let pending: Record<string, unknown>[] = keys;
    // Unprocessed keys (throttling) are asked again, a few times, with a short backoff.
    for (let round = 0; pending.length > 0; round++) {
      if (round === 4) throw new Error('BatchGetItem left the profile unprocessed');
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
      const output = await this.client.send(
        new BatchGetCommand({
          RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } },
        }),
      );
      items = [...items, ...(output.Responses?.[this.tableName] ?? [])];
      pending = output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
    }
    const profile = items.find((item) => item.pk === profileKey(userId).pk);
    if (profile?.erasedAt !== undefined) return { kind: 'erased' };
    const registration = items.find((item) => item.pk === registrationKey(userId).pk);
    const pointer = items.find((item) => item.pk === pointerKey.pk && item.sk === pointerKey.sk);
    const deletion =
      typeof pointer?.requestId === 'string' ? { pendingDeletionRequestId: pointer.requestId } : {};
    if (profile) {
      const read = toProfile(profile, userId);
      // A profile the sync created knows no organization name; the registration does.
      if (read.organizationName === null && registration) {
        read.organizationName = fromRegistration(registration, userId).organizationName;
      }
      if (read.organizationId === null && registration) {
        read.organizationId = fromRegistration(registration, userId).organizationId;
      }
      if (read.organizationRole === null && read.organizationId !== null) read.organizationRole = 'org_admin';
      if (read.registrationLocale === undefined && registration && isApiLocale(registration.locale)) {
        read.registrationLocale = registration.locale;
      }
      return { kind: 'profile', profile: read, ...deletion };
    }
    return registration
      ? { kind: 'profile', profile: fromRegistration(registration, userId), ...deletion }
      : undefined;
  }

  async saveAccount(account: Parameters<UserProfiles['saveAccount']>[0]): Promise<void> {
    const now = new Date().toISOString();
    const values: Record<string, unknown> = {
      ':kind': 'profile',
      ':userId': account.userId,
      ':email': account.email,
      ':name': account.name,
      ':now': now,
    };
    const sets = [
      'kind = :kind',
      'userId = :userId',
      'email = :email',
      '#name = :name',
      'createdAt = if_not_exists(createdAt, :now)',
      'updatedAt = :now',
    ];
    if (account.organizationName !== undefined) {
      sets.push('organizationName = :organizationName');
      values[':organizationName'] = account.organizationName;
    }
    if (account.organizationType !== undefined) {
      sets.push('organizationType = :organizationType');
      values[':organizationType'] = account.organizationType;
    }
    if (account.organizationId !== undefined) {
      sets.push('organizationId = :organizationId');
      values[':organizationId'] = account.organizationId;
    }
    if (account.registrationLocale !== undefined) {
      sets.push('registrationLocale = :registrationLocale');
      values[':registrationLocale'] = account.registrationLocale;
    }
    if (account.auth0Kyc) {
      // Only a first record: a sync's later record of Auth0 is newer than the creation's answer.
      sets.push(
        'auth0KycStatus = if_not_exists(auth0KycStatus, :auth0KycStatus)',
        'auth0KycUpdatedAt = if_not_exists(auth0KycUpdatedAt, :auth0KycUpdatedAt)',
      );
      values[':auth0KycStatus'] = account.auth0Kyc.status;
      values[':auth0KycUpdatedAt'] = account.auth0Kyc.updatedAt;
    }
    await this.update({
      Key: profileKey(account.userId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      // An erased account stays erased: a late retry of its registration must not bring it back.
      ConditionExpression: 'attribute_not_exists(erasedAt)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: values,
    });
  }

  async recordAuth0Kyc(
    userId: string,
    kyc: { status: KycStatus; updatedAt: string },
    options: { settled: boolean },
  ): Promise<void> {
    await this.update({
      Key: profileKey(userId),
      UpdateExpression: `SET auth0KycStatus = :status, auth0KycUpdatedAt = :updatedAt${
        options.settled ? ' REMOVE auth0Unsettled' : ''
      }`,
      // Only an existing profile: the mirror alone would be a profile without an account.
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasedAt)',
      ExpressionAttributeValues: { ':status': kyc.status, ':updatedAt': kyc.updatedAt },
    });
  }

  /** The marker an erasure leaves: no personal data, gone once the account's tokens are. */
  async markErased(userId: string, expiresAt: number): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...profileKey(userId),
          kind: 'erased-account',
          erasedAt: new Date().toISOString(),
          expiresAt,
        },
      }),
    );
  }

  async markAuth0Unsettled(userId: string): Promise<void> {
    await this.update({
      Key: profileKey(userId),
      UpdateExpression: 'SET auth0Unsettled = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    });
  }
}
