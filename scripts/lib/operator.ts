import { userInfo } from 'node:os';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';

// Who runs an operator command, as the admin trail records it (ADR 0078): in AWS the principal
// the credentials belong to (an assumed role's ARN names the SSO user's session), which AWS
// vouches for; on the local stack the machine's user, marked as local.

/** The caller's ARN, from STS (no permission is needed to ask); `region` when the SDK's configuration names none. */
export async function awsOperatorId(region?: string): Promise<string> {
  const sts = new STSClient(region ? { region } : {});
  try {
    const identity = await sts.send(new GetCallerIdentityCommand({}));
    if (!identity.Arn) throw new Error('STS answered no ARN for these credentials');
    return identity.Arn;
  } finally {
    sts.destroy();
  }
}

export function localOperatorId(): string {
  return `local:${userInfo().username}`;
}
