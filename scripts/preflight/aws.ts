import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetSecretValueCommand,
  ListSecretsCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { PreflightPorts } from './checks.ts';
import type { LambdaAccountPort } from './lambda-concurrency.ts';
import type { SecretsPort } from './secrets.ts';
import type { SesPort } from './ses.ts';
import type { CertificatePort, StacksPort } from './site.ts';

// The preflight's ports on the AWS SDK clients, read-only calls only, with the operator's
// credentials from the default chain. Endpoints are the SDK's regional ones.

/** CloudFormation tags every resource it creates with these. */
const stackNameTag = 'aws:cloudformation:stack-name';
const logicalIdTag = 'aws:cloudformation:logical-id';

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

export function secretsPort(client: SecretsManagerClient): SecretsPort {
  return {
    async stackSecrets(stackName) {
      const found: { logicalId: string; arn: string }[] = [];
      let nextToken: string | undefined;
      do {
        const page = await client.send(
          new ListSecretsCommand({
            Filters: [
              { Key: 'tag-key', Values: [stackNameTag] },
              { Key: 'tag-value', Values: [stackName] },
            ],
            ...(nextToken ? { NextToken: nextToken } : {}),
          }),
        );
        for (const secret of page.SecretList ?? []) {
          const tags = secret.Tags ?? [];
          // The two filters match any tag key and any tag value: keep the secrets of this very stack.
          if (!tags.some((tag) => tag.Key === stackNameTag && tag.Value === stackName)) continue;
          const logicalId = tags.find((tag) => tag.Key === logicalIdTag)?.Value;
          if (logicalId && secret.ARN) found.push({ logicalId, arn: secret.ARN });
        }
        nextToken = page.NextToken;
      } while (nextToken);
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
    secrets: secretsPort(secrets),
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
