import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ApiLocale } from '#contracts/locale.ts';
import { profileKeyPrefix } from '#lambdas/tables.ts';

// The profile's key and the one write other adapters make to it, in a module of their own: the
// consent ledger's bundles take these without the profile adapter (issue 28).

export const profileKey = (userId: string) => ({ pk: `${profileKeyPrefix}${userId}`, sk: 'PROFILE' });

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The person's latest language choice on their profile (`preferredLocale`, `preferredLocaleAt`;
 * issue 28), as one item of the consent ledger's transaction (the consent and the choice in one
 * write). Only an existing profile of an account not erased: the ledger adapter appends without it
 * when this condition fails.
 */
export function languageChoiceUpdate(
  tableName: string,
  userId: string,
  locale: ApiLocale,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: profileKey(userId),
      UpdateExpression: 'SET preferredLocale = :locale, preferredLocaleAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasedAt)',
      ExpressionAttributeValues: { ':locale': locale, ':at': at },
    },
  };
}
