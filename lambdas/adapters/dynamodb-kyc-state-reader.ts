import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type KycStatus, kycStatuses } from '#contracts/kyc.ts';
import { isExpired } from '#lambdas/adapters/dynamodb-retention.ts';
import { type KycStateReader, kycStateKey } from '#lambdas/domain/ports.ts';

/**
 * Reads the per-user KYC state item the KYC feature writes (strongly consistent: it is the truth).
 * An item past its retention (`expiresAt`, set when the relationship ended) is no state at all:
 * DynamoDB deletes expired items only eventually.
 */
export class DynamoDbKycStateReader implements KycStateReader {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getState(
    userId: string,
  ): Promise<{ status: KycStatus; updatedAt: string; inquiryId: string | null } | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: kycStateKey(userId), ConsistentRead: true }),
    );
    if (!Item || !(kycStatuses as readonly unknown[]).includes(Item.status)) return undefined;
    if (isExpired(Item)) return undefined;
    return {
      status: Item.status as KycStatus,
      updatedAt: typeof Item.updatedAt === 'string' ? Item.updatedAt : '',
      inquiryId: typeof Item.inquiryId === 'string' ? Item.inquiryId : null,
    };
  }
}
