import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DescribeStacksCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { PreflightPorts } from './checks.ts';
import type { LambdaAccountPort } from './lambda-concurrency.ts';
import type { SecretsPort } from './secrets.ts';
import type { SesPort } from './ses.ts';
import type { CertificatePort, StacksPort } from './site.ts';

// The preflight's ports on the AWS SDK clients, read-only calls only, with the operator's
// credentials from the default chain. Endpoints are the SDK's regional ones.

/** CloudFormation tags every resource it creates with this. */
const stackNameTag = 'aws:cloudformation:stack-name';

const named = (error: unknown, name: string) => error instanceof Error && error.name === name;

export function sesPort(client: SESv2Client): SesPort {
  return {
    async account() {
      const answer = await client.send(new GetAccountCommand({}));
      return {
        productionAccess: answer.ProductionAccessEnabled === true,
        sendingEnabled: answer.SendingEnabled !== false,
      };
    },
    async identity(name) {
      try {
        const answer = await client.send(new GetEmailIdentityCommand({ EmailIdentity: name }));
        const stackName = answer.Tags?.find((tag) => tag.Key === stackNameTag)?.Value;
        return { verified: answer.VerifiedForSendingStatus === true, ...(stackName ? { stackName } : {}) };
      } catch (error) {
        if (named(error, 'NotFoundException')) return undefined;
        throw error;
      }
    },
  };
}

/**
 * The data stack's secrets by the stack's own resource list (their physical ids), never by tag: a
 * failed create of an older stack left secrets behind with the same tags, names and logical ids.
 */
export function secretsPort(client: SecretsManagerClient, cloudFormation: CloudFormationClient): SecretsPort {
  return {
    async stackSecrets(stackName) {
      const found: { logicalId: string; arn: string }[] = [];
      let nextToken: string | undefined;
      try {
        do {
          const page = await cloudFormation.send(
            new ListStackResourcesCommand({
              StackName: stackName,
              ...(nextToken ? { NextToken: nextToken } : {}),
            }),
          );
          for (const resource of page.StackResourceSummaries ?? []) {
            if (resource.ResourceType !== 'AWS::SecretsManager::Secret') continue;
            if (resource.ResourceStatus === 'DELETE_COMPLETE' || !resource.PhysicalResourceId) continue;
            if (resource.LogicalResourceId)
              found.push({ logicalId: resource.LogicalResourceId, arn: resource.PhysicalResourceId });
          }
          nextToken = page.NextToken;
        } while (nextToken);
      } catch (error) {
        // No stack yet (before the first deploy): no secrets to check.
        if (named(error, 'ValidationError') && /does not exist/.test((error as Error).message)) return [];
        throw error;
      }
      return found;
    },
    async value(arn) {
      try {
        const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
        return answer.SecretString;
      } catch (error) {
        if (named(error, 'ResourceNotFoundException')) return undefined;
        throw error;
      }
    },
  };
}

export function lambdaAccountPort(client: LambdaClient): LambdaAccountPort {
  return {
    async concurrency() {
      const { AccountLimit } = await client.send(new GetAccountSettingsCommand({}));
      return {
        limit: AccountLimit?.ConcurrentExecutions ?? 0,
        unreserved: AccountLimit?.UnreservedConcurrentExecutions ?? 0,
      };
    },
  };
}

/** CloudFront takes certificates from us-east-1 only: the client must be in that region. */
export function certificatePort(client: ACMClient): CertificatePort {
  return {
    async describe(arn) {
      try {
        const { Certificate } = await client.send(new DescribeCertificateCommand({ CertificateArn: arn }));
        return {
          status: Certificate?.Status ?? 'UNKNOWN',
          domainNames:
            Certificate?.SubjectAlternativeNames ?? (Certificate?.DomainName ? [Certificate.DomainName] : []),
        };
      } catch (error) {
        if (named(error, 'ResourceNotFoundException')) return undefined;
        throw error;
      }
    },
  };
}

export function stacksPort(client: CloudFormationClient): StacksPort {
  return {
    async outputs(stackName) {
      try {
        const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
        const stack = Stacks?.[0];
        if (!stack || stack.StackStatus === 'DELETE_COMPLETE') return undefined;
        return Object.fromEntries(
          (stack.Outputs ?? []).flatMap((output) =>
            output.OutputKey && output.OutputValue !== undefined
              ? [[output.OutputKey, output.OutputValue]]
              : [],
          ),
        );
      } catch (error) {
        // CloudFormation answers a stack that does not exist with a ValidationError.
        if (named(error, 'ValidationError') && /does not exist/.test((error as Error).message))
          return undefined;
        throw error;
      }
    },
  };
}

export function awsPreflightPorts(region: string): PreflightPorts & { close(): void } {
  const ses = new SESv2Client({ region });
  const secrets = new SecretsManagerClient({ region });
  const lambda = new LambdaClient({ region });
  const acm = new ACMClient({ region: 'us-east-1' });
  const cloudFormation = new CloudFormationClient({ region });
  const edgeCloudFormation = new CloudFormationClient({ region: 'us-east-1' });
  return {
    lambda: lambdaAccountPort(lambda),
    ses: sesPort(ses),
    certificates: certificatePort(acm),
    secrets: secretsPort(secrets, cloudFormation),
    stacks: stacksPort(cloudFormation),
    edgeStacks: stacksPort(edgeCloudFormation),
    close: () => {
      cloudFormation.destroy();
      edgeCloudFormation.destroy();
      ses.destroy();
      secrets.destroy();
      lambda.destroy();
      acm.destroy();
    },
  };
}
