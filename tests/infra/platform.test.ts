import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { domainEvents } from '#contracts/events.ts';
import { accessLogFields } from '#infra/api/platform-api.ts';
import { auditorActions } from '#infra/data/auditor-policy.ts';
import { exampleStages } from '#infra/stage-config.ts';
import { rateLimitKey } from '#lambdas/adapters/dynamodb-rate-limiter.ts';
import { registrationKey, registrationRequestKey } from '#lambdas/adapters/dynamodb-registration-store.ts';
import { deletionRequestKey, ownDeletionPointerKey } from '#lambdas/adapters/dynamodb-submission-store.ts';
import { profileKey } from '#lambdas/adapters/dynamodb-user-profiles.ts';
import { functionEnv } from '#lambdas/environment.ts';
import { eventRules, kycDecisionMarkerPrefix } from '#lambdas/event-rules.ts';
import { auth0M2mKeys, isAuth0M2mKey, secretEnvVars } from '#lambdas/grants.ts';
import { routes } from '#lambdas/routes.ts';
import { tableKeys, tables } from '#lambdas/tables.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

// Synthesis without bundling: the stacks must follow the shared route, rule and table definitions.
const { data, backend, site, stacks } = synthPlatform();

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown };
const statements = Object.values(backend.findResources('AWS::IAM::Policy')).flatMap(
  (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
);
const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();
/** The statements of one function's role (its construct id is its route or rule id). */
const statementsOf = (id: string) =>
  Object.entries(backend.findResources('AWS::IAM::Policy'))
    // CDK drops a repeated path segment: `ChangeOrganizationMemberRole/Role` is `…MemberRoleDefaultPolicy…`.
    .filter(([logicalId]) => logicalId.startsWith(`${id.replace(/Role$/, '')}RoleDefaultPolicy`))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
/** A statement's resources as ARN strings, a reference written `<LogicalId...>`. */
const sesResources = (statement: Statement) =>
  [statement.Resource].flat().map((resource) => {
    if (typeof resource === 'string') return resource;
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (!join) return JSON.stringify(resource);
    return join[1]
      .map((part) => {
        if (typeof part === 'string') return part;
        const ref = (part as { Ref?: string }).Ref;
        if (ref === 'AWS::Partition') return 'aws';
        return `<${ref ?? JSON.stringify(part)}>`;
      })
      .join(join[0]);
  });
/** The data stack's managed policies whose construct id starts with `id`. */
const managedPolicy = (id: string) =>
  Object.entries(data.findResources('AWS::IAM::ManagedPolicy'))
    .filter(([logicalId]) => logicalId.startsWith(id))
    .map(([, policy]) => policy);
const refOf = (value: unknown) => (value as { Ref?: string }).Ref;
const getAttOf = (value: unknown) => (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];

describe('the data stack', () => {
  it('builds every table of lambdas/tables.ts with its keys and indexes', () => {
    data.resourceCountIs('AWS::DynamoDB::GlobalTable', tableKeys.length);
    for (const key of tableKeys) {
      const def = tables[key];
      data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        KeySchema: Match.arrayWith([{ AttributeName: def.partitionKey.name, KeyType: 'HASH' }]),
        GlobalSecondaryIndexes: def.indexes.map((index) => Match.objectLike({ IndexName: index.name })),
      });
    }
  });

  it('protects every table: PITR, deletion protection, retained on delete, no physical name', () => {
    for (const resource of Object.values(data.findResources('AWS::DynamoDB::GlobalTable'))) {
      expect(resource.DeletionPolicy).toBe('RetainExceptOnCreate');
      expect(resource.UpdateReplacePolicy).toBe('Retain');
      expect(resource.Properties.TableName).toBeUndefined();
      for (const replica of resource.Properties.Replicas) {
        expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        expect(replica.DeletionProtectionEnabled).toBe(true);
      }
    }
  });

  it('expires the consent ledger and the KYC state on expiresAt, set when the relationship ends (ADR 0031)', () => {
    for (const key of ['consentLedger', 'kycState'] as const) {
      data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        KeySchema: Match.arrayWith([{ AttributeName: tables[key].partitionKey.name, KeyType: 'HASH' }]),
        GlobalSecondaryIndexes: Match.arrayWith([
          Match.objectLike({ IndexName: tables[key].indexes[0].name }),
        ]),
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      });
    }
  });

  it('keeps one secret per SecretKey (each Auth0 M2M application its own), retained, with no value in the template', () => {
    const secrets = Object.values(data.findResources('AWS::SecretsManager::Secret'));
    expect(secrets).toHaveLength(Object.keys(secretEnvVars).length);
    for (const secret of secrets) {
      expect(secret.DeletionPolicy).toBe('RetainExceptOnCreate');
      expect(secret.Properties.SecretString).toBeUndefined();
    }
  });

  it('keeps the logical ids of every stateful resource, so no refactor can replace one', () => {
    const stateful = [
      'AWS::DynamoDB::GlobalTable',
      'AWS::SecretsManager::Secret',
      'AWS::SES::EmailIdentity',
      'AWS::SES::ConfigurationSet',
    ];
    const ids = Object.fromEntries(
      stateful.flatMap((type) => Object.keys(data.findResources(type)).map((id) => [id, type])),
    );
    expect(ids).toEqual({
      DataAdminAuditLog48A30BB2: 'AWS::DynamoDB::GlobalTable',
      DataConsentLedger60BD9010: 'AWS::DynamoDB::GlobalTable',
      DataKycStateFC554048: 'AWS::DynamoDB::GlobalTable',
      DataSubmissionsC34A80E9: 'AWS::DynamoDB::GlobalTable',
      // The shared SecretsAuth0M2m was split per function (ADR 0034); being retained, it stays in
      // the account until an operator deletes it (docs/operating.md).
      SecretsAuth0RegistrationB06F1C56: 'AWS::SecretsManager::Secret',
      SecretsAuth0ReadUsersF0A82144: 'AWS::SecretsManager::Secret',
      SecretsAuth0VerificationEmail5C07A396: 'AWS::SecretsManager::Secret',
      SecretsAuth0KycSync3ADBD540: 'AWS::SecretsManager::Secret',
      SecretsAuth0Erasure3418202B: 'AWS::SecretsManager::Secret',
      SecretsAuth0OrganizationTeamBA755A6D: 'AWS::SecretsManager::Secret',
      SecretsPersonaApiKeyB1A325FE: 'AWS::SecretsManager::Secret',
      SecretsPersonaWebhookSecret928B16FD: 'AWS::SecretsManager::Secret',
      SecretsOriginVerify59304C5E: 'AWS::SecretsManager::Secret',
      EmailIdentityCD6BD173: 'AWS::SES::EmailIdentity',
      EmailConfigurationSet6A762543: 'AWS::SES::ConfigurationSet',
    });
  });

  it('cannot be deleted by accident: termination protection is on', () => {
    expect(stacks.data.terminationProtection).toBe(true);
  });

  it('gives auditors read-only access to the consent ledger, the admin trail and their indexes, and to nothing else', () => {
    const policies = managedPolicy('Auditor');
    expect(policies).toHaveLength(1);
    const [statement, ...others] = (policies[0]?.Properties.PolicyDocument.Statement ?? []) as Statement[];
    expect(others).toEqual([]);
    expect(statement?.Effect).toBe('Allow');
    expect([...actionsOf(statement as Statement)].sort()).toEqual([...auditorActions].sort());
    expect([...actionsOf(statement as Statement)].sort()).toEqual([
      'dynamodb:DescribeContinuousBackups',
      'dynamodb:DescribeTable',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
    ]);
    const resources = JSON.stringify(statement?.Resource);
    expect(resources).toContain('DataConsentLedger60BD9010');
    expect(resources).toContain('DataAdminAuditLog48A30BB2');
    expect(resources).not.toMatch(/KycState|Submissions/);
    expect(resources).toContain('/index/byPurposeAndTime');
    expect(resources).toContain('/index/byTime');
    expect(resources).toContain('/index/byTarget');
    expect(resources).not.toContain('*');
  });

  it('gives erasure operators a ready policy: what data:erase does, its two secrets, and only the expiry written on kept records', () => {
    const [policy] = managedPolicy('ErasureOperator');
    const statements = (policy?.Properties.PolicyDocument.Statement ?? []) as Statement[];
    const grants = statements.map((statement) => ({
      actions: [...actionsOf(statement)].sort(),
      resources: JSON.stringify(statement.Resource).match(
        /Data\w+?(?=[0-9A-F]{8}")|Secrets\w+?(?=[0-9A-F]{8}")|\/index\/\w+/g,
      ),
      condition: statement.Condition,
    }));
    expect(grants).toEqual([
      {
        actions: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
        resources: ['DataSubmissions', 'DataSubmissions', '/index/byEmail'],
        condition: undefined,
      },
      {
        actions: ['dynamodb:GetItem', 'dynamodb:Query'],
        resources: ['DataKycState', 'DataConsentLedger'],
        condition: undefined,
      },
      {
        actions: ['dynamodb:UpdateItem'],
        resources: ['DataKycState', 'DataConsentLedger'],
        condition: {
          'ForAllValues:StringEquals': {
            'dynamodb:Attributes': ['expiresAt', 'subjectId', 'sequence', 'pk', 'sk'],
          },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
        },
      },
      // The run's entry in the admin trail: the head read and the entry put, nothing updated (ADR 0078).
      {
        actions: ['dynamodb:PutItem', 'dynamodb:Query'],
        resources: ['DataAdminAuditLog'],
        condition: undefined,
      },
      {
        actions: ['secretsmanager:GetSecretValue'],
        resources: ['SecretsAuth0Erasure', 'SecretsPersonaApiKey'],
        condition: undefined,
      },
    ]);
    data.hasOutput('ErasureOperatorPolicyArn', {
      Value: { Ref: Match.stringLikeRegexp('^ErasureOperatorPolicy') },
    });
  });

  it('gives the operators of admin:role and auth0:provision the trail append only, and admin:role its one secret (ADR 0078)', () => {
    const grantsOf = (id: string) => {
      const policies = managedPolicy(id);
      expect(policies).toHaveLength(1);
      return ((policies[0]?.Properties.PolicyDocument.Statement ?? []) as Statement[]).map((statement) => ({
        effect: statement.Effect,
        actions: [...actionsOf(statement)].sort(),
        resources: JSON.stringify(statement.Resource).match(
          /Data\w+?(?=[0-9A-F]{8}")|Secrets\w+?(?=[0-9A-F]{8}")|\/index|\*/g,
        ),
        condition: statement.Condition,
      }));
    };
    // The head read and the entry put on the table itself: no update, no delete, no index.
    expect(grantsOf('AuditTrailAppenderPolicy')).toEqual([
      {
        effect: 'Allow',
        actions: ['dynamodb:PutItem', 'dynamodb:Query'],
        resources: ['DataAdminAuditLog'],
        condition: undefined,
      },
    ]);
    expect(grantsOf('AuditTrailRoleOperatorPolicy')).toEqual([
      {
        effect: 'Allow',
        actions: ['secretsmanager:GetSecretValue'],
        resources: ['SecretsAuth0KycSync'],
        condition: undefined,
      },
    ]);
    data.hasOutput('AuditTrailAppenderPolicyArn', {
      Value: { Ref: Match.stringLikeRegexp('^AuditTrailAppenderPolicy') },
    });
    data.hasOutput('RoleOperatorPolicyArn', {
      Value: { Ref: Match.stringLikeRegexp('^AuditTrailRoleOperatorPolicy') },
    });
    // What operators set ADMIN_AUDIT_TABLE to.
    data.hasOutput('AdminAuditTableName', { Value: { Ref: 'DataAdminAuditLog48A30BB2' } });
    // The operators' outputs (the cross-stack exports aside).
    expect(
      Object.keys(data.findOutputs('*'))
        .filter((id) => !id.startsWith('ExportsOutput'))
        .sort(),
    ).toEqual([
      'AdminAuditTableName',
      'AuditTrailAppenderPolicyArn',
      'AuditorPolicyArn',
      'ErasureOperatorPolicyArn',
      'RoleOperatorPolicyArn',
    ]);
  });
});

describe('the backend stack', () => {
  const functions = backend.findResources('AWS::Lambda::Function');
  const roles = backend.findResources('AWS::IAM::Role');
  const logGroups = backend.findResources('AWS::Logs::LogGroup');

  it('has one HTTP API route and one arm64 function per route, plus one function per event rule', () => {
    backend.resourceCountIs('AWS::ApiGatewayV2::Route', routes.length);
    for (const route of routes) {
      backend.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: `${route.method} ${route.path}`,
        AuthorizationType: route.auth === 'user' || route.auth === 'admin' ? 'JWT' : 'NONE',
      });
    }
    backend.resourceCountIs('AWS::Lambda::Function', routes.length + eventRules.length);
    backend.allResourcesProperties('AWS::Lambda::Function', {
      Architectures: ['arm64'],
      Runtime: 'nodejs24.x',
      TracingConfig: { Mode: 'Active' },
    });
  });

  it('is an HTTP API, never a REST API, in every stack', () => {
    for (const template of [data, backend, site]) template.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    backend.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    backend.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
  });

  it('throttles every route as routes.ts says, and every other request by default', () => {
    const settings = Object.fromEntries(
      routes.map((r) => [
        `${r.method} ${r.path}`,
        Match.objectLike({
          ThrottlingRateLimit: r.throttle.rateLimit,
          ThrottlingBurstLimit: r.throttle.burstLimit,
        }),
      ]),
    );
    backend.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      RouteSettings: settings,
      DefaultRouteSettings: Match.objectLike({
        ThrottlingRateLimit: Match.anyValue(),
        ThrottlingBurstLimit: Match.anyValue(),
      }),
    });
  });

  it('writes a JSON access log line per request to a log group with retention', () => {
    const stages = Object.values(backend.findResources('AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(1);
    const settings = stages[0]?.Properties.AccessLogSettings;
    const format = JSON.parse(settings.Format);
    for (const field of ['requestId', 'ip', 'routeKey', 'status', 'latency', 'integrationError']) {
      expect(format[field]).toBe(accessLogFields[field as keyof typeof accessLogFields]);
    }
    const logGroup = logGroups[getAttOf(settings.DestinationArn) as string];
    expect(logGroup?.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  it('gives every function its own role, with no managed policy and no wildcard action', () => {
    const roleIds = Object.values(functions).map((fn) => getAttOf(fn.Properties.Role));
    expect(new Set(roleIds).size).toBe(roleIds.length);
    for (const roleId of roleIds) {
      const role = roles[roleId as string];
      expect(role?.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
        Service: 'lambda.amazonaws.com',
      });
      expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
    }
    for (const statement of statements) {
      for (const action of actionsOf(statement)) expect(action).not.toMatch(/(^\*$|:\*$)/);
    }
  });

  it('gives every function its own log group with retention, which only it may write to', () => {
    const seen = new Set<string>();
    for (const fn of Object.values(functions)) {
      const logGroupId = refOf(fn.Properties.LoggingConfig.LogGroup) as string;
      expect(seen.has(logGroupId)).toBe(false);
      seen.add(logGroupId);
      expect(logGroups[logGroupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
      expect(fn.Properties.LoggingConfig.LogFormat).toBe('JSON');
    }
  });

  it('caps concurrency where routes.ts and event-rules.ts ask for it', () => {
    for (const def of [...routes, ...eventRules].filter((d) => d.reservedConcurrency)) {
      const matching = Object.entries(functions).filter(([id]) => id.startsWith(def.id));
      expect(matching.map(([, fn]) => fn.Properties.ReservedConcurrentExecutions)).toEqual([
        def.reservedConcurrency,
      ]);
    }
  });

  it('gives every rule target a retry policy and a dead-letter queue', () => {
    const rules = Object.values(backend.findResources('AWS::Events::Rule'));
    expect(rules).toHaveLength(eventRules.length);
    for (const rule of rules) {
      for (const target of rule.Properties.Targets) {
        expect(target.RetryPolicy.MaximumRetryAttempts).toBeGreaterThanOrEqual(0);
        expect(target.RetryPolicy.MaximumEventAgeInSeconds).toBeGreaterThan(0);
        expect(target.DeadLetterConfig?.Arn).toBeDefined();
      }
    }
  });

  it("sends an event target's failed invocations, after Lambda's retries, to the rule's dead-letter queue", () => {
    const rules = Object.values(backend.findResources('AWS::Events::Rule'));
    const configs = Object.values(backend.findResources('AWS::Lambda::EventInvokeConfig'));
    expect(configs).toHaveLength(eventRules.length);
    for (const rule of rules) {
      const [target] = rule.Properties.Targets;
      const fnId = getAttOf(target.Arn);
      const config = configs.find((c) => refOf(c.Properties.FunctionName) === fnId);
      expect(config?.Properties.DestinationConfig.OnFailure.Destination).toEqual(target.DeadLetterConfig.Arn);
      expect(config?.Properties.MaximumRetryAttempts).toBeLessThanOrEqual(2);
    }
  });

  it('encrypts every dead-letter queue and refuses non-TLS access to it', () => {
    const queues = backend.findResources('AWS::SQS::Queue');
    for (const queue of Object.values(queues)) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = Object.values(backend.findResources('AWS::SQS::QueuePolicy'));
    const denied = policies.flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as { Effect: string; Condition?: unknown }[])
        .filter((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('aws:SecureTransport'))
        .flatMap(() => p.Properties.Queues.map(refOf)),
    );
    expect(new Set(denied)).toEqual(new Set(Object.keys(queues)));
  });

  it('never lets any function update or delete consent-ledger records', () => {
    const ledgerWriters = statements.filter((s) => JSON.stringify(s.Resource).includes('ConsentLedger'));
    expect(ledgerWriters.length).toBeGreaterThan(0);
    for (const statement of ledgerWriters) {
      expect(actionsOf(statement)).not.toContain('dynamodb:UpdateItem');
      expect(actionsOf(statement)).not.toContain('dynamodb:DeleteItem');
    }
  });

  it('lets each function put on the bus only the events it declares, by source and detail-type', () => {
    const publishers = [...routes, ...eventRules].flatMap((def) =>
      def.grants.flatMap((grant) => (grant.kind === 'eventBus' ? [[def.id, grant.publishes] as const] : [])),
    );
    expect(publishers.length).toBeGreaterThan(0);
    for (const [id, publishes] of publishers) {
      const puts = statementsOf(id).filter((s) => actionsOf(s).includes('events:PutEvents'));
      expect(puts, id).toHaveLength(1);
      expect(puts[0]?.Condition, id).toEqual({
        StringEquals: {
          'events:source': [...new Set(publishes.map((type) => domainEvents[type].source))],
          'events:detail-type': [...publishes],
        },
      });
    }
    // Anyone may register: that function must not be able to forge a verification result (it
    // publishes only the request's id; the account work publishes RegistrationSubmitted).
    expect(
      statementsOf('CreateRegistration').find((s) => actionsOf(s).includes('events:PutEvents'))?.Condition,
    ).toEqual({
      StringEquals: {
        'events:source': ['platform.registration'],
        'events:detail-type': ['RegistrationRequested'],
      },
    });
    const unconditioned = statements.filter(
      (s) => actionsOf(s).some((a) => a.startsWith('events:')) && !s.Condition,
    );
    expect(unconditioned).toEqual([]);
  });

  it("lets notify-kyc-decision write its markers in the KYC table and nothing of the users' KYC state", () => {
    const onKyc = statementsOf('NotifyKycDecision').filter((s) =>
      JSON.stringify(s.Resource).includes('DataKycState'),
    );
    expect(onKyc).toHaveLength(1);
    expect([...actionsOf(onKyc[0] as Statement)].sort()).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(onKyc[0]?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${kycDecisionMarkerPrefix}#*`] },
    });
    // The state items' keys (USER#..., OUTBOX, EVENT#..., INQUIRY#...) do not match the prefix.
    expect(`${kycDecisionMarkerPrefix}#`).not.toMatch(/^(USER|OUTBOX|EVENT|INQUIRY)/);
  });

  it('lets the data-deletion functions touch only the deletion requests, the rate windows and their own profile in the submissions table (ADR 0072)', () => {
    const onSubmissions = (id: string) =>
      statementsOf(id)
        .filter((s) => JSON.stringify(s.Resource).includes('DataSubmissions'))
        .map((s) => ({
          actions: [...actionsOf(s)].sort(),
          leadingKeys: (
            s.Condition as { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } }
          )?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'],
        }));
    const reads = [
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
    ];
    expect(onSubmissions('CreateDataDeletionRequest')).toEqual([
      { actions: ['dynamodb:PutItem'], leadingKeys: ['DELETION#*'] },
      { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ['RATE#*'] },
    ]);
    expect(onSubmissions('ConfirmDataDeletionRequest')).toEqual([
      { actions: ['dynamodb:UpdateItem'], leadingKeys: ['DELETION#*'] },
    ]);
    expect(onSubmissions('CreateOwnDataDeletionRequest')).toEqual([
      { actions: reads, leadingKeys: ['PROFILE#*', 'REGISTRATION#*', 'DELETION#*'] },
      // The request and the account's pointer to it, read to answer a pending one (ADR 0076).
      { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'], leadingKeys: ['DELETION#*'] },
      { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ['RATE#*'] },
    ]);
    expect(onSubmissions('CancelOwnDataDeletionRequest')).toEqual([
      {
        actions: [...reads, 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort(),
        leadingKeys: ['DELETION#*'],
      },
    ]);
    expect(ownDeletionPointerKey('auth0|1').pk).toBe('DELETION#OWN#auth0|1');
    // The consent route: its windows, and the language choice on the profile, an UpdateItem only
    // (issue 28), in the ledger append's transaction.
    expect(onSubmissions('CreateConsent')).toEqual([
      { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ['RATE#*'] },
      { actions: ['dynamodb:UpdateItem'], leadingKeys: ['PROFILE#*'] },
    ]);
    // The other per-user limits' routes: their windows only (ADR 0072).
    for (const id of ['StartKycInquiry', 'SendVerificationEmail'])
      expect([id, onSubmissions(id)]).toEqual([
        id,
        [{ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ['RATE#*'] }],
      ]);
    // The prefixes are the adapters' own keys.
    expect(deletionRequestKey('r1').pk).toBe('DELETION#r1');
    expect(rateLimitKey('deletion-confirmation-email', 'h').pk).toBe('RATE#deletion-confirmation-email#h');
    expect(profileKey('auth0|1').pk).toBe('PROFILE#auth0|1');
    expect(registrationKey('auth0|1').pk).toBe('REGISTRATION#auth0|1');
    // `REGISTRATION#*` does not reach the stored registration requests (their contact details).
    expect(registrationRequestKey('x').pk.startsWith('REGISTRATION#')).toBe(false);
  });

  it('lets each Auth0-calling function read the secret of the M2M application its handler uses, and no other', () => {
    const handlerSource = (name: string) =>
      readFileSync(new URL(`../../lambdas/handlers/${name}.ts`, import.meta.url), 'utf8');
    let callers = 0;
    for (const def of [...routes, ...eventRules]) {
      const source = handlerSource(def.handler);
      const used = [
        ...[...source.matchAll(/getUserDirectory\('(\w+)'\)/g)].map((m) => m[1]),
        // The team page's directory (built lazily by teamDirectory()) reads its own application's secret (ADR 0084).
        ...(/\b(?:organizationTeamDirectory|teamDirectory)\(\)/.test(source)
          ? ['auth0OrganizationTeam']
          : []),
      ];
      const granted = def.grants.flatMap((g) =>
        g.kind === 'secret' && isAuth0M2mKey(g.secret) ? [g.secret] : [],
      );
      expect([def.id, granted]).toEqual([def.id, used]);
      if (granted.length > 0) callers += 1;
      const readable = JSON.stringify(
        statementsOf(def.id)
          .filter((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'))
          .map((s) => s.Resource),
      );
      for (const key of auth0M2mKeys) {
        const secretId = `Secrets${key[0]?.toUpperCase()}${key.slice(1)}`;
        expect([def.id, key, readable.includes(secretId)]).toEqual([def.id, key, granted.includes(key)]);
      }
    }
    // Registration's account work, the queued verification email, the status sync and the
    // decision email are event targets. The only API routes that spend the tenant's Management API
    // quota (ADR 0059) are an org_admin's changes to the team (ADR 0084), with its application only.
    expect(callers).toBe(9);
    expect(
      routes
        .filter((route) => route.grants.some((g) => g.kind === 'secret' && isAuth0M2mKey(g.secret)))
        .map((route) => [
          route.id,
          route.grants.flatMap((g) => (g.kind === 'secret' && isAuth0M2mKey(g.secret) ? [g.secret] : [])),
        ]),
    ).toEqual(
      [
        'CreateOrganizationInvitation',
        'ResendOrganizationInvitation',
        'RevokeOrganizationInvitation',
        'ChangeOrganizationMemberRole',
        'RemoveOrganizationMember',
      ].map((id) => [id, ['auth0OrganizationTeam']]),
    );
    // The erasure's delete:users belongs to an operator's script: no function may read it.
    expect(JSON.stringify(statements)).not.toContain('SecretsAuth0Erasure');
  });

  it("sets only the environment variables lambdas/environment.ts, the tables' and the secrets' rows declare", () => {
    const declared = new Set([
      ...Object.values(functionEnv),
      ...Object.values(tables).map((table) => table.envVar),
      ...Object.values(secretEnvVars),
      // Node's, not the product's.
      'NODE_OPTIONS',
    ]);
    const functions = Object.entries(backend.findResources('AWS::Lambda::Function')).filter(
      ([, fn]) => fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME,
    );
    expect(functions.length).toBeGreaterThan(10);
    for (const [id, fn] of functions)
      for (const name of Object.keys(fn.Properties.Environment.Variables))
        expect(declared.has(name), `${id} sets ${name}`).toBe(true);
    expect(new Set(Object.values(functionEnv)).size).toBe(Object.keys(functionEnv).length);
  });

  it('runs the KYC reconciliation every 15 minutes with its age and cap, reading only, publishing only PersonaEventReceived (ADR 0038)', () => {
    backend.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(15 minutes)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ReconcileKycInquiries'), 'Arn'] },
        }),
      ],
    });
    backend.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          [functionEnv.reconcileMinAgeMinutes]: '120',
          [functionEnv.reconcileMaxInquiries]: '100',
          PERSONA_API_URL: Match.anyValue(),
        }),
      },
    });
    const actions = statementsOf('ReconcileKycInquiries').flatMap(actionsOf);
    expect(
      actions.filter(
        (a) =>
          a.startsWith('dynamodb:') &&
          !/^dynamodb:(GetItem|Query|BatchGetItem|ConditionCheckItem|Scan|DescribeTable|GetRecords|GetShardIterator)$/.test(
            a,
          ),
      ),
    ).toEqual([]);
    expect(actions).toContain('dynamodb:Query');
    expect(JSON.stringify(statementsOf('ReconcileKycInquiries'))).toContain('SecretsPersonaApiKey');
    const puts = statementsOf('ReconcileKycInquiries').filter((s) =>
      actionsOf(s).includes('events:PutEvents'),
    );
    expect(JSON.stringify(puts.map((s) => s.Condition))).toContain('PersonaEventReceived');
    expect(JSON.stringify(puts.map((s) => s.Condition))).not.toContain('KycStatusChanged');
  });

  it('lets the email-sending functions send from the sender only, through the domain identity and the configuration set', () => {
    const senders = [...routes, ...eventRules].filter((def) => def.grants.some((g) => g.kind === 'email'));
    expect(senders.length).toBeGreaterThan(0);
    for (const def of senders) {
      const ses = statementsOf(def.id).filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
      expect(
        ses.map((s) => ({ actions: actionsOf(s), resources: sesResources(s), condition: s.Condition })),
      ).toEqual([
        {
          actions: ['ses:SendEmail'],
          resources: [
            'arn:aws:ses:eu-central-1:111111111111:identity/platform.example',
            expect.stringMatching(
              /^arn:aws:ses:eu-central-1:111111111111:configuration-set\/.*ExportsOutputRefEmailConfigurationSet/,
            ),
          ],
          condition: { StringEquals: { 'ses:FromAddress': 'no-reply@platform.example' } },
        },
      ]);
    }
  });

  it('adds the sandbox recipients a stage lists, and only those, to the send permission (SES checks them in the sandbox)', () => {
    const dev = exampleStages.dev as NonNullable<(typeof exampleStages)[string]>;
    const recipients = ['tester@mail.acme-test.de', 'qa.acme-test.de'];
    const sandbox = synthPlatform({ email: { ...dev.email, sandboxRecipients: recipients } } as never);
    const identities = Object.values(sandbox.backend.findResources('AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => actionsOf(s).includes('ses:SendEmail'))
      .map((s) => sesResources(s).filter((r) => r.includes(':identity/')));
    expect(identities.length).toBeGreaterThan(0);
    for (const granted of identities) {
      expect(granted).toEqual([
        'arn:aws:ses:eu-central-1:111111111111:identity/platform.example',
        ...recipients.map((r) => `arn:aws:ses:eu-central-1:111111111111:identity/${r}`),
      ]);
    }
    expect(() =>
      synthPlatform({ email: { ...dev.email, sandboxRecipients: ['not an identity'] } } as never),
    ).toThrow(/email\.sandboxRecipients\.0/);
  });

  it('names the indexes a function may query instead of granting index/*', () => {
    for (const statement of statements) expect(JSON.stringify(statement.Resource)).not.toContain('/index/*');
  });
});
