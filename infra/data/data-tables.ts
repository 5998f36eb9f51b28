import { AttributeType, Billing, type ITableV2, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { retained } from '#infra/retained.ts';
import { type KeyDef, type TableKey, tableKeys, tables } from '#lambdas/tables.ts';

// The product's tables, built from lambdas/tables.ts: on demand, PITR, deletion protection,
// retained on stack deletion. CDK generates the physical names.

const attribute = (key: KeyDef) => ({
  name: key.name,
  type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

export class DataTables extends Construct {
  readonly tables: Record<TableKey, ITableV2>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const built = {} as Record<TableKey, ITableV2>;
    for (const key of tableKeys) {
      const def = tables[key];
      built[key] = new TableV2(this, def.logicalName, {
        partitionKey: attribute(def.partitionKey),
        ...(def.sortKey ? { sortKey: attribute(def.sortKey) } : {}),
        billing: Billing.onDemand(),
        encryption: TableEncryptionV2.awsManagedKey(),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: true,
        removalPolicy: retained,
        ...('ttlAttribute' in def ? { timeToLiveAttribute: def.ttlAttribute } : {}),
        globalSecondaryIndexes: def.indexes.map((index) => ({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          ...('sortKey' in index && index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        })),
      });
    }
    this.tables = built;
  }
}
