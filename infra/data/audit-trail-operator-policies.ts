import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface AuditTrailOperatorPoliciesProps {
  adminAuditLog: ITableV2;
  /** The auth0KycSync application's credentials: read:users and update:users_app_metadata (ADR 0034). */
  auth0KycSync: ISecret;
}

/**
 * What the operators of `npm run admin:role` and `npm run auth0:provision` need to record what they
 * do in the admin audit trail (ADR 0078), as managed policies operators attach like the auditors'
 * one:
 * - `appender`: the trail's head (Query) and the new entry (PutItem) on the table itself, never an
 *   update, a delete or an index; both commands;
 * - `roleOperator`: the auth0KycSync secret, whose application holds exactly the two Management API
 *   scopes a role change needs (`npm run admin:role` only; provisioning has its own application).
 */
export class AuditTrailOperatorPolicies extends Construct {
  readonly appender: ManagedPolicy;
  readonly roleOperator: ManagedPolicy;

  constructor(scope: Construct, id: string, props: AuditTrailOperatorPoliciesProps) {
    super(scope, id);
    this.appender = new ManagedPolicy(this, 'AppenderPolicy', {
      description:
        'Appends to the admin audit trail: npm run admin:role and npm run auth0:provision record each change there',
      statements: [
        new PolicyStatement({
          actions: ['dynamodb:Query', 'dynamodb:PutItem'],
          resources: [props.adminAuditLog.tableArn],
        }),
      ],
    });
    this.roleOperator = new ManagedPolicy(this, 'RoleOperatorPolicy', {
      description:
        "Reads the auth0KycSync application's credentials (read:users, update:users_app_metadata) for npm run admin:role",
      statements: [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [props.auth0KycSync.secretArn],
        }),
      ],
    });
  }
}
