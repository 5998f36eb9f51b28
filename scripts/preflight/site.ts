import type { StageConfig } from '#infra/stage-config.ts';
import { describeError, type Finding, siteStackName } from './findings.ts';

export interface CertificatePort {
  /** ACM DescribeCertificate (in the ARN's region); undefined when there is no such certificate. */
  describe(arn: string): Promise<{ status: string; domainNames: string[] } | undefined>;
}
export interface StacksPort {
  /**
   * CloudFormation DescribeStacks: the stack's outputs by key; undefined when the stack does not
   * exist (or was deleted).
   */
  outputs(stackName: string): Promise<Record<string, string> | undefined>;
}
/** The region of an ACM certificate ARN (`arn:aws:acm:<region>:...`). */
const arnRegion = (arn: string) => arn.split(':')[3] ?? '';
const certificateCovers = (names: string[], host: string) =>
  names.some(
    (name) => name === host || (name.startsWith('*.') && host.slice(host.indexOf('.') + 1) === name.slice(2)),
  );

export async function siteChecks(config: StageConfig, certificates: CertificatePort): Promise<Finding[]> {
  const check = 'Site domain';
  if (!config.domainName || !config.certificateArn) {
    return [
      {
        check,
        status: 'note',
        detail: `no domainName: the site's address is the CloudFront host, known after the first deploy (output ${siteStackName(config)}.DistributionDomainName)`,
        fix: `After the first deploy: aws cloudformation describe-stacks --region ${config.region} --stack-name ${siteStackName(config)} --query "Stacks[0].Outputs[?OutputKey=='DistributionDomainName'].OutputValue" --output text`,
      },
    ];
  }
  const region = arnRegion(config.certificateArn);
  if (region !== 'us-east-1') {
    return [
      {
        check,
        status: 'missing',
        detail: `the certificate is in ${region}; CloudFront only uses certificates from us-east-1`,
        fix: `aws acm request-certificate --region us-east-1 --domain-name ${config.domainName} --validation-method DNS, validate it, and set certificateArn.`,
      },
    ];
  }
  let certificate: { status: string; domainNames: string[] } | undefined;
  try {
    certificate = await certificates.describe(config.certificateArn);
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the certificate (${describeError(error)})`,
        fix: `Check by hand: aws acm describe-certificate --region us-east-1 --certificate-arn ${config.certificateArn} --query "Certificate.[Status,SubjectAlternativeNames]" (ISSUED, covering ${config.domainName}).`,
      },
    ];
  }
  if (!certificate) {
    return [
      {
        check,
        status: 'missing',
        detail: `there is no certificate ${config.certificateArn}`,
        fix: `aws acm list-certificates --region us-east-1 shows the account's certificates.`,
      },
    ];
  }
  const findings: Finding[] = [];
  if (certificate.status !== 'ISSUED') {
    findings.push({
      check,
      status: 'missing',
      detail: `the certificate is ${certificate.status}, not ISSUED`,
      fix: `Add its DNS validation record (aws acm describe-certificate --region us-east-1 --certificate-arn ${config.certificateArn}).`,
    });
  }
  if (!certificateCovers(certificate.domainNames, config.domainName)) {
    findings.push({
      check,
      status: 'missing',
      detail: `the certificate covers ${certificate.domainNames.join(', ')}, not ${config.domainName}`,
      fix: `Request one for ${config.domainName} in us-east-1.`,
    });
  }
  if (findings.length === 0)
    findings.push({
      check,
      status: 'ok',
      detail: `the certificate in us-east-1 is issued for ${config.domainName}`,
    });
  return findings;
}

/**
 * The site's address against the deployed distribution (ADR 0040's two passes for a stage without
 * a custom domain): links in emails and Auth0's callback URLs are built from `siteUrl`, so it must
 * name the host CloudFront actually serves.
 */
export async function siteAddressCheck(config: StageConfig, stacks: StacksPort): Promise<Finding[]> {
  const check = 'Site address';
  const stack = siteStackName(config);
  let outputs: Record<string, string> | undefined;
  try {
    outputs = await stacks.outputs(stack);
  } catch (error) {
    return [
      {
        check,
        status: 'missing',
        detail: `could not read the stack ${stack}: ${error instanceof Error ? error.message : String(error)}`,
        fix: `Check by hand: aws cloudformation describe-stacks --region ${config.region} --stack-name ${stack}`,
      },
    ];
  }
  const host = outputs?.DistributionDomainName;
  const expected = config.domainName ? `https://${config.domainName}` : host ? `https://${host}` : undefined;
  if (!outputs) {
    if (config.domainName) return [{ check, status: 'ok', detail: `${config.siteUrl} (the custom domain)` }];
    if (!config.siteUrl)
      return [
        {
          check,
          status: 'later',
          detail:
            'first pass: deploy without siteUrl; emails (login instructions, decisions, deletion confirmations) fail until the second pass',
          fix: `After the first deploy run the preflight again: it names the siteUrl to set (docs/deploying.md, "A stage without a custom domain").`,
        },
      ];
    return [
      {
        check,
        status: 'missing',
        detail: `siteUrl is ${config.siteUrl}, but ${stack} does not exist yet, so no CloudFront host is known`,
        fix: 'Leave siteUrl out for the first deploy (or set domainName and certificateArn).',
      },
    ];
  }
  if (!expected) {
    return [
      {
        check,
        status: 'missing',
        detail: `${stack} exists but has no DistributionDomainName output`,
        fix: `aws cloudformation describe-stacks --region ${config.region} --stack-name ${stack} shows its state; deploy it again.`,
      },
    ];
  }
  if (config.siteUrl === expected)
    return [{ check, status: 'ok', detail: `${expected} is what ${stack} serves` }];
  return [
    {
      check,
      status: 'missing',
      detail: config.siteUrl
        ? `siteUrl is ${config.siteUrl}, but ${stack} serves ${expected}`
        : `second pass: the site is deployed at ${expected}, and siteUrl is not set`,
      fix: `Set siteUrl to ${expected} in the stage file, provision Auth0 again (npm run auth0:provision), build with SITE_URL=${expected} (npm run build) and deploy again.`,
    },
  ];
}
