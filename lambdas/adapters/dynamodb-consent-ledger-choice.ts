import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiLocale } from '#contracts/locale.ts';
import type { ConsentRecord } from '#lambdas/domain/ports.ts';
import {
  type ConsentLedgerOptions,
  DynamoDbConsentLedger,
  recordPut,
  type WriteOutcome,
} from './dynamodb-consent-ledger.ts';
import { languageChoiceUpdate } from './dynamodb-profile-key.ts';

// The consent ledger of POST /api/consents (issue 28): an append that carries the person's language
// choice writes the record and the profile's `preferredLocale` in one TransactWriteItems (the
// record's conditional PutItem, the profile's conditional UpdateItem): one write, no extra call,
// and the choice never without the consent. A module of its own, so only this route's bundle
// carries the transaction.

export class DynamoDbConsentLedgerWithLanguageChoice extends DynamoDbConsentLedger {
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    /** The table of the profiles (the submissions table). */
    private readonly profilesTable: string,
    options: ConsentLedgerOptions = {},
  ) {
    super(client, tableName, options);
  }

  /**
   * With a language choice, the record's put and the profile's update in one transaction. One that
   * another transaction on the same items cancelled counts as a taken sequence (the append reads
   * the head again); one whose profile condition failed (no profile, or an erased account) is
   * `no_profile`, and the append writes the record alone.
   */
  protected override async write(
    record: ConsentRecord,
    languageChoice: ApiLocale | undefined,
  ): Promise<WriteOutcome> {
    if (languageChoice === undefined) return super.write(record, undefined);
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: recordPut(this.tableName, record) },
            languageChoiceUpdate(this.profilesTable, record.subjectId, languageChoice, record.recordedAt),
          ],
        }),
      );
      return 'written';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [ledger, profile] = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (ledger === 'ConditionalCheckFailed' || ledger === 'TransactionConflict') return 'sequence_taken';
      if (profile === 'ConditionalCheckFailed') return 'no_profile';
      if (profile === 'TransactionConflict') return 'sequence_taken';
      throw error;
    }
  }
}
