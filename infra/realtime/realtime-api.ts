import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AppSyncAuthorizationType,
  type CfnApi,
  type ChannelNamespace,
  Code,
  EventApi,
} from 'aws-cdk-lib/aws-appsync';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { kycChannelNamespace } from '#contracts/kyc-channel.ts';
import { kycDecisionsHandlerCode } from './handler-code.ts';

export interface RealtimeApiProps {
  /** Auth0's issuer (`https://<domain>/`): AppSync checks the access tokens against it (OIDC). */
  issuer: string;
  /** The API audience the access tokens carry (`aud`): AppSync's OIDC `clientId` regex. */
  audience: string;
  logRetention: RetentionDays;
}

/** A regular expression that matches exactly `value` (AppSync takes the OIDC client id as a regex). */
export const exactly = (value: string) => `^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/**
 * The realtime API that pushes decisions to the status screens (ADR 0060): AppSync Events, one
 * channel namespace, `kyc-decisions`. Browsers connect and subscribe with their Auth0 access token
 * (OIDC: AppSync verifies it; no authorizer function, no connection table); the namespace's
 * onSubscribe handler lets a user read their own channel only. Only IAM may publish: the
 * push-kyc-decision function, through its `realtimePublish` grant.
 */
export class RealtimeApi extends Construct {
  readonly api: EventApi;
  readonly kycDecisions: ChannelNamespace;

  constructor(scope: Construct, id: string, props: RealtimeApiProps) {
    super(scope, id);
    this.api = new EventApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-realtime`.slice(0, 50),
      authorizationConfig: {
        authProviders: [
          { authorizationType: AppSyncAuthorizationType.IAM },
          {
            authorizationType: AppSyncAuthorizationType.OIDC,
            openIdConnectConfig: { oidcProvider: props.issuer, clientId: exactly(props.audience) },
          },
        ],
        connectionAuthModeTypes: [AppSyncAuthorizationType.OIDC],
        defaultPublishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        defaultSubscribeAuthModeTypes: [AppSyncAuthorizationType.OIDC],
      },
    });
    // Logging (errors only: an event or a token never reaches the logs) into a log group of our
    // own, with the stage's retention, written by a role that may write there and nowhere else.
    // EventApi's `logConfig` would add a log-retention function and AWS managed policies instead.
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/appsync/apis/${this.api.apiId}`,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logsRole = new Role(this, 'LogsRole', { assumedBy: new ServicePrincipal('appsync.amazonaws.com') });
    logsRole.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn, `${logGroup.logGroupArn}:log-stream:*`],
      }),
    );
    Validations.of(logsRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::<RealtimeLogs5C43159D.Arn>:log-stream:*]',
      reason:
        "AppSync names its log streams itself: any stream, but only in the realtime API's own log group",
    });
    (this.api.node.defaultChild as CfnApi).addPropertyOverride('EventConfig.LogConfig', {
      CloudWatchLogsRoleArn: logsRole.roleArn,
      LogLevel: 'ERROR',
    });
    this.kycDecisions = this.api.addChannelNamespace('KycDecisions', {
      channelNamespaceName: kycChannelNamespace,
      code: Code.fromInline(kycDecisionsHandlerCode()),
      authorizationConfig: {
        publishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        subscribeAuthModeTypes: [AppSyncAuthorizationType.OIDC],
      },
    });
  }

  /** `arn:...:apis/<id>/channelNamespace/<name>`: what a publisher of one namespace may publish to. */
  namespaceArn(namespace: string): string {
    return `${this.api.apiArn}/channelNamespace/${namespace}`;
  }
}
