import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { tables } from '#lambdas/tables.ts';

/** Everything an auditor may do: read the ledger and see that it is protected, nothing else. */
export const auditorActions = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:DescribeTable',
  'dynamodb:DescribeContinuousBackups',
] as const;

/**
 * The managed policy an operator attaches to the auditors' role or SSO permission set
 * (docs/design.md section 6): read-only on the consent ledger, the admin audit trail (ADR 0078)
 * and their indexes. The tables use the AWS-managed key, so no KMS statement is needed.
 */
export class AuditorPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: { consentLedger: ITableV2; adminAuditLog: ITableV2 }) {
    super(scope, id);
    const { consentLedger, adminAuditLog } = props;
    this.policy = new ManagedPolicy(this, 'Policy', {
      description:
        'Read-only access to the consent ledger and the admin audit trail for auditors (npm run audit:consents, audit:admin)',
      statements: [
        new PolicyStatement({
          actions: [...auditorActions],
          resources: [
            consentLedger.tableArn,
            ...tables.consentLedger.indexes.map((index) => `${consentLedger.tableArn}/index/${index.name}`),
            adminAuditLog.tableArn,
            ...tables.adminAuditLog.indexes.map((index) => `${adminAuditLog.tableArn}/index/${index.name}`),
          ],
        }),
      ],
    });
  }
}
