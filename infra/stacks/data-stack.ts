import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DataTables } from '#infra/data/data-construct.ts';

/** Stateful resources only, with termination protection; their logical ids never change. */
export class DataStack extends Stack {
  readonly data: DataTables;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, { ...props, terminationProtection: true });
    this.data = new DataTables(this, 'Data');
  }
}
