import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { AuditTrailOperatorPolicies } from '#infra/data/audit-trail-operator-policies.ts';
import { AuditorPolicy } from '#infra/data/auditor-policy.ts';
import { DataTables } from '#infra/data/data-tables.ts';
import { ErasureOperatorPolicy } from '#infra/data/erasure-operator-policy.ts';
import { PlatformEmail } from '#infra/data/platform-email.ts';
import { PlatformSecrets } from '#infra/data/platform-secrets.ts';

export interface DataStackProps extends StackProps {
  emailDomain: string;
}

/**
 * Stateful resources only (tables, secrets, the verified email identity), with termination
 * protection; their logical ids never change.
 */
export class DataStack extends Stack {
  readonly data: DataTables;
  readonly secrets: PlatformSecrets;
  readonly email: PlatformEmail;
  readonly auditor: AuditorPolicy;
  readonly erasureOperator: ErasureOperatorPolicy;
  readonly trailOperators: AuditTrailOperatorPolicies;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { ...props, terminationProtection: true });
    this.data = new DataTables(this, 'Data');
    this.secrets = new PlatformSecrets(this, 'Secrets');
    this.email = new PlatformEmail(this, 'Email', { domain: props.emailDomain });
    this.auditor = new AuditorPolicy(this, 'Auditor', {
      consentLedger: this.data.tables.consentLedger,
      adminAuditLog: this.data.tables.adminAuditLog,
    });
    new CfnOutput(this, 'AuditorPolicyArn', {
      description:
        'Attach to the auditors role or permission set: read-only on the consent ledger and the admin audit trail',
      value: this.auditor.policy.managedPolicyArn,
    });
    this.erasureOperator = new ErasureOperatorPolicy(this, 'ErasureOperator', {
      tables: this.data.tables,
      secrets: this.secrets.secrets,
    });
    new CfnOutput(this, 'ErasureOperatorPolicyArn', {
      description: 'Attach to the role of the operators who run npm run data:erase (docs/operating.md)',
      value: this.erasureOperator.policy.managedPolicyArn,
    });
    this.trailOperators = new AuditTrailOperatorPolicies(this, 'AuditTrail', {
      adminAuditLog: this.data.tables.adminAuditLog,
      auth0KycSync: this.secrets.secrets.auth0KycSync,
    });
    new CfnOutput(this, 'AuditTrailAppenderPolicyArn', {
      description:
        'Attach to the role of the operators who run npm run admin:role or npm run auth0:provision: appends to the admin audit trail',
      value: this.trailOperators.appender.managedPolicyArn,
    });
    new CfnOutput(this, 'RoleOperatorPolicyArn', {
      description:
        'Attach, with AuditTrailAppenderPolicyArn, to the role of the operators who run npm run admin:role: the auth0KycSync secret',
      value: this.trailOperators.roleOperator.managedPolicyArn,
    });
    new CfnOutput(this, 'AdminAuditTableName', {
      description:
        'The admin audit trail: set ADMIN_AUDIT_TABLE to it for npm run admin:role, auth0:provision, audit:admin and data:erase',
      value: this.data.tables.adminAuditLog.tableName,
    });
  }
}
