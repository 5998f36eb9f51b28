import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DataTables } from '#infra/data/data-construct.ts';
import { PlatformEmail } from '#infra/data/email-construct.ts';
import { PlatformSecrets } from '#infra/data/secrets-construct.ts';

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

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { ...props, terminationProtection: true });
    this.data = new DataTables(this, 'Data');
    this.secrets = new PlatformSecrets(this, 'Secrets');
    this.email = new PlatformEmail(this, 'Email', { domain: props.emailDomain });
  }
}
