import { secretLogicalIdPrefix } from '#infra/auth0/provision/provision.ts';
import type { StageConfig } from '#infra/stage-config.ts';
import { parseM2mCredentials } from '#lambdas/adapters/auth0-management-api.ts';
import { parseWebhookSecrets } from '#lambdas/domain/kyc/persona-signature.ts';
import { auth0M2mKeys, isAuth0M2mKey, type SecretKey } from '#lambdas/grants.ts';
import { acceptedOriginValues } from '#lambdas/http/edge.ts';
import { dataStackName, describeError, type Finding } from './findings.ts';

export interface SecretsPort {
  /** The secrets CloudFormation created in the stack (its `aws:cloudformation:*` tags), by logical id. */
  stackSecrets(stackName: string): Promise<{ logicalId: string; arn: string }[]>;
  /** The secret's current value; undefined when it has none. */
  value(arn: string): Promise<string | undefined>;
}
/** The secret's construct id in the data stack (`Secrets` + the key in PascalCase), its logical id's prefix. */
const secretIdOf = (key: SecretKey) => secretLogicalIdPrefix(key);
const secretKeys: SecretKey[] = [...auth0M2mKeys, 'personaApiKey', 'personaWebhookSecret', 'originVerify'];

/** Why a secret's value would not work, or undefined when it parses as its reader expects. */
export function secretProblem(key: SecretKey, value: string): string | undefined {
  if (isAuth0M2mKey(key)) {
    try {
      parseM2mCredentials(value);
      return undefined;
    } catch {
      return 'is not JSON {"clientId","clientSecret"} (still the generated placeholder?)';
    }
  }
  if (key === 'personaApiKey') {
    return /^persona_(sandbox|production)_\S+$/.test(value)
      ? undefined
      : 'is not a Persona API key (persona_sandbox_... or persona_production_...)';
  }
  if (key === 'personaWebhookSecret') {
    const secrets = parseWebhookSecrets(value);
    return secrets.length > 0 && secrets.every((s) => s.startsWith('wbhsec_'))
      ? undefined
      : 'is not a Persona webhook secret (wbhsec_..., two separated by a space while rotating)';
  }
  return acceptedOriginValues(value).length > 0
    ? undefined
    : 'is not JSON {"current","previous"} with a current value of 16 characters or more';
}

export async function secretChecks(
  config: StageConfig,
  secrets: SecretsPort,
): Promise<{ findings: Finding[]; deployed: boolean }> {
  const check = 'Secrets';
  const stack = dataStackName(config);
  let found: { logicalId: string; arn: string }[];
  try {
    found = await secrets.stackSecrets(stack);
  } catch (error) {
    return {
      deployed: false,
      findings: [
        {
          check,
          status: 'missing',
          detail: `could not list the secrets (${describeError(error)})`,
          fix: `Run with credentials that may call secretsmanager:ListSecrets and GetSecretValue in ${config.region}.`,
        },
      ],
    };
  }
  if (found.length === 0) {
    return {
      deployed: false,
      findings: [
        {
          check,
          status: 'later',
          detail: `${stack} is not deployed yet: the first deploy creates the secrets with generated placeholder values`,
          fix: 'Fill them after the first deploy (docs/deploying.md section 4), then run the preflight again.',
        },
      ],
    };
  }
  const findings: Finding[] = [];
  for (const key of secretKeys) {
    const secret = found.find(
      (s) =>
        s.logicalId.startsWith(secretIdOf(key)) &&
        /^[0-9A-F]{8}$/.test(s.logicalId.slice(secretIdOf(key).length)),
    );
    if (!secret) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} does not exist in ${stack}`,
        fix: 'Deploy the data stack again.',
      });
      continue;
    }
    let problem: string | undefined;
    try {
      const value = await secrets.value(secret.arn);
      problem = value === undefined ? 'has no value' : secretProblem(key, value);
    } catch (error) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} could not be read (${describeError(error)})`,
        fix: `Run with credentials that may call secretsmanager:GetSecretValue on ${secret.arn}.`,
      });
      continue;
    }
    if (problem) {
      findings.push({
        check,
        status: 'missing',
        detail: `${secretIdOf(key)} ${problem}`,
        fix: `aws secretsmanager put-secret-value --region ${config.region} --secret-id ${secret.arn} --secret-string file://${key}.${isAuth0M2mKey(key) || key === 'originVerify' ? 'json' : 'txt'} (docs/deploying.md section 4)`,
      });
    }
  }
  if (findings.length === 0)
    findings.push({
      check,
      status: 'ok',
      detail: `all ${secretKeys.length} secrets of ${stack} hold values that parse`,
    });
  return { findings, deployed: true };
}
