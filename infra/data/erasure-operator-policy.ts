import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { tables } from '#lambdas/tables.ts';

/**
 * The only attributes an erasure's UpdateItem on the consent ledger and the KYC table may name:
 * the retention expiry and the keys its condition checks (lambdas/adapters/dynamodb-retention.ts).
 */
export const retentionUpdateAttributes = ['expiresAt', 'subjectId', 'sequence', 'pk', 'sk'] as const;

export interface ErasureOperatorPolicyProps {
  tables: { submissions: ITableV2; kycState: ITableV2; consentLedger: ITableV2; adminAuditLog: ITableV2 };
  /** The erasure's own Auth0 application (read and delete users) and the Persona API key. */
  secrets: { auth0Erasure: ISecret; personaApiKey: ISecret };
}

/**
 * What `npm run data:erase` does with the operator's credentials (docs/operating.md), as a managed
 * policy operators attach like the auditors' one: the deletion request and the address's
 * submissions in the Submissions table (read, mark, delete), the KYC state and consent ledger read,
 * their expiry set and nothing else written, the run appended to the admin audit trail (ADR 0078),
 * and the two secrets it reads.
 */
export class ErasureOperatorPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: ErasureOperatorPolicyProps) {
    super(scope, id);
    const { submissions, kycState, consentLedger, adminAuditLog } = props.tables;
    const byEmail = tables.submissions.indexes.map((index) => `${submissions.tableArn}/index/${index.name}`);
    this.policy = new ManagedPolicy(this, 'Policy', {
      description:
        'Runs npm run data:erase: a deletion request, its submissions and the retention expiry of what is kept',
      statements: [
        new PolicyStatement({
          actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
          resources: [submissions.tableArn, ...byEmail],
        }),
        new PolicyStatement({
          actions: ['dynamodb:GetItem', 'dynamodb:Query'],
          resources: [kycState.tableArn, consentLedger.tableArn],
        }),
        // Records kept for their legal reason only get their expiry: no other attribute, and the
        // old values are not returned.
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [kycState.tableArn, consentLedger.tableArn],
          conditions: {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...retentionUpdateAttributes] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        }),
        // The trail's head, and the run's entry put after it: append only, never an update or delete.
        new PolicyStatement({
          actions: ['dynamodb:Query', 'dynamodb:PutItem'],
          resources: [adminAuditLog.tableArn],
        }),
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [props.secrets.auth0Erasure.secretArn, props.secrets.personaApiKey.secretArn],
        }),
      ],
    });
  }
}
