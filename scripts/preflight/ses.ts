import type { StageConfig } from '#infra/stage-config.ts';
import { dataStackName, describeError, type Finding } from './findings.ts';

export interface EmailIdentityState {
  verified: boolean;
  /** The CloudFormation stack that created it, when it carries the `aws:cloudformation:stack-name` tag. */
  stackName?: string;
}
export interface SesPort {
  /** SES v2 GetAccount. */
  account(): Promise<{ productionAccess: boolean; sendingEnabled: boolean }>;
  /** SES v2 GetEmailIdentity; undefined when the identity does not exist. */
  identity(name: string): Promise<EmailIdentityState | undefined>;
}
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
/** An identity covers an address when it is the address itself or its domain. */
const covers = (identity: string, address: string) =>
  identity.toLowerCase() === address.toLowerCase() || identity.toLowerCase() === domainOf(address);

export async function sesChecks(
  config: StageConfig,
  ses: SesPort,
  dataStackDeployed: boolean,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const { domain, operationsAddress, sandboxRecipients } = config.email;
  const region = config.region;
  let identity: EmailIdentityState | undefined;
  try {
    identity = await ses.identity(domain);
  } catch (error) {
    return [
      {
        check: 'SES identity',
        status: 'missing',
        detail: `could not read the SES identity ${domain} (${describeError(error)})`,
        fix: `Run with credentials that may call ses:GetEmailIdentity and ses:GetAccount in ${region}.`,
      },
    ];
  }
  const ours = identity?.stackName === dataStackName(config);
  if (identity && !dataStackDeployed && !ours) {
    findings.push({
      check: 'SES identity',
      status: 'missing',
      detail: `${domain} is already an SES identity in ${region}${identity.stackName ? ` (created by ${identity.stackName})` : ''}: the data stack creates its own and would fail`,
      fix: `Give this stage another email.domain (for example a subdomain, mail-${config.stage}.${domain}), or deploy it in another region or account (docs/deploying.md, "A second stage").`,
    });
  } else if (!identity) {
    findings.push(
      dataStackDeployed
        ? {
            check: 'SES identity',
            status: 'missing',
            detail: `${domain} is not an SES identity in ${region}, although ${dataStackName(config)} exists`,
            fix: 'Deploy the data stack again (it creates the identity).',
          }
        : {
            check: 'SES identity',
            status: 'later',
            detail: `${domain}: the data stack creates the identity`,
            fix: 'After the first deploy publish its DKIM records (docs/deploying.md section 7), then run the preflight again.',
          },
    );
  } else if (!identity.verified) {
    findings.push({
      check: 'SES identity',
      status: 'missing',
      detail: `${domain} is not verified for sending yet`,
      fix: `Publish its three DKIM CNAME records (aws sesv2 get-email-identity --region ${region} --email-identity ${domain} --query DkimAttributes.Tokens; docs/deploying.md section 7); SES verifies within about an hour.`,
    });
  } else {
    findings.push({ check: 'SES identity', status: 'ok', detail: `${domain} is verified for sending` });
  }

  let account: { productionAccess: boolean; sendingEnabled: boolean };
  try {
    account = await ses.account();
  } catch (error) {
    findings.push({
      check: 'SES account',
      status: 'missing',
      detail: `could not read the SES account (${describeError(error)})`,
      fix: `Run with credentials that may call ses:GetAccount in ${region}.`,
    });
    return findings;
  }
  if (!account.sendingEnabled) {
    findings.push({
      check: 'SES account',
      status: 'missing',
      detail: `sending is disabled for the account in ${region}`,
      fix: 'See the SES console (Account dashboard) for why, and ask AWS support to re-enable it.',
    });
  }
  if (account.productionAccess) {
    findings.push({
      check: 'SES sandbox',
      status: 'ok',
      detail: `the account has production access in ${region}`,
    });
    if (sandboxRecipients.length > 0) {
      findings.push({
        check: 'SES sandbox',
        status: 'note',
        detail: 'email.sandboxRecipients is set but no longer needed',
        fix: 'Remove it from the stage config and deploy again (least privilege).',
      });
    }
    return findings;
  }
  // Without a custom domain the site's URL is the CloudFront host, known only after the first deploy.
  const request = `aws sesv2 put-account-details --region ${region} --production-access-enabled --mail-type TRANSACTIONAL --website-url ${config.siteUrl ?? 'https://<that host>'} --contact-language EN --use-case-description "..." (docs/deploying.md section 7)`;
  const production = config.siteUrl
    ? `: ${request}`
    : ` once the site's URL is known (after the first deploy the "Site address" check names its host): ${request}`;
  if (sandboxRecipients.length === 0) {
    // Production access is AWS's to grant, within about a day: the deploy need not wait for it.
    findings.push({
      check: 'SES sandbox',
      status: 'warning',
      detail: `the account is in the SES sandbox in ${region} and the stage lists no email.sandboxRecipients: until AWS grants production access no registrant gets an email`,
      fix: `The deploy can go ahead while production access is pending. Request it${production}\nTo test before it is granted: verify your test addresses and list them in email.sandboxRecipients.`,
    });
  } else {
    findings.push({
      check: 'SES sandbox',
      status: 'note',
      detail: `the account is in the SES sandbox in ${region}: email goes only to ${[domain, ...sandboxRecipients].join(', ')}`,
      fix: `Before real users, request production access${production}`,
    });
    for (const recipient of sandboxRecipients) {
      let state: EmailIdentityState | undefined;
      try {
        state = await ses.identity(recipient);
      } catch (error) {
        findings.push({
          check: 'SES sandbox',
          status: 'missing',
          detail: `could not read the SES identity ${recipient} (${describeError(error)})`,
        });
        continue;
      }
      if (!state?.verified) {
        findings.push({
          check: 'SES sandbox',
          status: 'missing',
          detail: `sandbox recipient ${recipient} is ${state ? 'not verified yet' : 'not an SES identity'}`,
          fix: `aws sesv2 create-email-identity --region ${region} --email-identity ${recipient}, then open the link SES sends to it.`,
        });
      }
    }
  }
  if (!covers(domain, operationsAddress) && !sandboxRecipients.some((r) => covers(r, operationsAddress))) {
    findings.push({
      check: 'SES sandbox',
      status: 'missing',
      detail: `the operations address ${operationsAddress} is neither on ${domain} nor in email.sandboxRecipients: new registrations would not be announced`,
      fix: `Verify it (aws sesv2 create-email-identity --region ${region} --email-identity ${operationsAddress}) and add it to email.sandboxRecipients.`,
    });
  }
  return findings;
}
