import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, CfnResource, CloudFormationValidatePlugin, Stack } from 'aws-cdk-lib';
import { VALIDATE_AGAINST_DEFAULT_RULES, VALIDATION_REPORT_FILE } from 'aws-cdk-lib/cx-api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { synthPlatform, validationContext, withEverything } from '#tests/infra/synth.ts';

// Every template the app synthesizes passes CloudFormation Validate (ADR 0069): the engine
// aws-cdk-lib runs at each synth, on the CloudFormation registry schemas it bundles. An error
// fails `cdk synth` and `cdk deploy` (cdk.json's flag); here a warning fails too, unless it is
// acknowledged beside its resource.

const root = fileURLToPath(new URL('../../', import.meta.url));
const plugin = CloudFormationValidatePlugin.PLUGIN_NAME;

interface ReportFinding {
  ruleName: string;
  severity: string;
  description: string;
  violatingConstructs: {
    constructPath?: string;
    cloudFormationResource?: { templatePath: string; logicalId: string; propertyPaths?: string[] };
  }[];
}
interface PluginReport {
  pluginName: string;
  violations: ReportFinding[];
  suppressedViolations?: ReportFinding[];
}

/** CloudFormation Validate's findings in an assembly's report: `rule severity Stack/Resource.Path: what`. */
function report(directory: string) {
  const file = path.join(directory, VALIDATION_REPORT_FILE);
  const reports: PluginReport[] = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8')).pluginReports
    : [];
  const format = (v: ReportFinding) =>
    v.violatingConstructs.map(({ cloudFormationResource: r, constructPath }) =>
      r
        ? `${v.ruleName} ${v.severity} ${r.templatePath.replace(/\.template\.json$/, '')}/${r.logicalId}${(r.propertyPaths ?? []).map((p) => `.${p}`).join('')}: ${v.description}`
        : `${v.ruleName} ${v.severity} ${constructPath}: ${v.description}`,
    );
  const own = reports.filter((r) => r.pluginName === plugin);
  return {
    violations: own.flatMap((r) => r.violations.flatMap(format)),
    acknowledged: own.flatMap((r) => (r.suppressedViolations ?? []).flatMap(format)),
  };
}

function assemblyOf(overrides: Parameters<typeof synthPlatform>[0] = {}) {
  const assembly = synthPlatform(overrides).app.synth();
  return {
    stacks: assembly.stacks.map((s) => `${s.stackName} ${s.environment.region}`).sort(),
    ...report(assembly.directory),
  };
}

// Synthesized once per stage shape, at module load (a full synth takes a few seconds; the first
// also starts the validation engine).
const example = assemblyOf();
const full = assemblyOf(withEverything);

describe('CloudFormation Validate on the synthesized templates', () => {
  it('runs on every synth of the app, and fails `cdk synth` and `cdk deploy` on an error', () => {
    const cdkJson = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8'));
    expect(cdkJson.context[VALIDATE_AGAINST_DEFAULT_RULES]).toBe(true);
    expect(validationContext[VALIDATE_AGAINST_DEFAULT_RULES]).toBe(true);
    // CDK_VALIDATION=false would turn it off for the whole process.
    expect(process.env.CDK_VALIDATION).not.toBe('false');
  });

  it('covers every stack of both stage shapes, the edge stack in us-east-1', () => {
    expect(example.stacks).toEqual([
      'Platform-dev-Backend eu-central-1',
      'Platform-dev-Data eu-central-1',
      'Platform-dev-Edge us-east-1',
      'Platform-dev-Site eu-central-1',
    ]);
    expect(full.stacks).toEqual([
      'Platform-dev-Backend eu-central-1',
      'Platform-dev-Data eu-central-1',
      'Platform-dev-Site eu-central-1',
    ]);
  });

  it('finds no error or warning in the example stage', () => {
    expect(example.violations).toEqual([]);
  });

  it('finds none in a stage with a custom domain, a WAF ACL and an alarm email either', () => {
    expect(full.violations).toEqual([]);
  });

  it('lets through only what aws-cdk-lib acknowledges itself', () => {
    // The access-log bucket takes CloudFront's and S3's log deliveries by ACL: the Bucket construct
    // sets AccessControl (LogDeliveryWrite) and acknowledges the deprecation itself.
    const acknowledged = [
      'W3045 warning Platform-dev-Site/SiteLogsBCCC85C3.Properties.AccessControl: AccessControl: AccessControl property is deprecated. Use bucket policies instead',
    ];
    expect(example.acknowledged).toEqual(acknowledged);
    expect(full.acknowledged).toEqual(acknowledged);
  });
});

describe('CloudFormation Validate', () => {
  const outdirs: string[] = [];
  afterAll(() => {
    for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Synthesizes one stack the way the app is synthesized: whether the synth failed, and the findings. */
  function validate(build: (stack: Stack) => void) {
    const outdir = mkdtempSync(path.join(tmpdir(), 'cfn-validate-'));
    outdirs.push(outdir);
    const app = new App({ outdir, context: validationContext });
    build(new Stack(app, 'T', { env: { region: 'eu-central-1', account: '111111111111' } }));
    let failed = false;
    try {
      app.synth();
    } catch (error) {
      if (!String(error).includes('CloudFormation Validate')) throw error;
      failed = true;
    }
    return { failed, findings: report(outdir).violations.map((f) => f.replace(/^(\S+ \S+) T\//, '$1 ')) };
  }

  const role = (stack: Stack) =>
    new CfnResource(stack, 'Role', {
      type: 'AWS::IAM::Role',
      properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        },
      },
    });
  /** A function written as a raw L1, so any property can be got wrong. */
  const fn = (stack: Stack, properties: Record<string, unknown> = {}) =>
    new CfnResource(stack, 'Fn', {
      type: 'AWS::Lambda::Function',
      properties: {
        Code: { ZipFile: 'exports.handler = async () => {};' },
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Role: role(stack).getAtt('Arn'),
        ...properties,
      },
    });

  it('takes a valid template', () => {
    expect(validate((stack) => fn(stack, { Timeout: 30 }))).toEqual({ failed: false, findings: [] });
  });

  it('fails the synth on an unknown property', () => {
    expect(validate((stack) => fn(stack, { Timeoutt: 30 }))).toEqual({
      failed: true,
      findings: [
        "F3002 error Fn.Properties.Timeoutt: Timeoutt: Additional properties are not allowed ('Timeoutt' was unexpected. Did you mean 'Timeout'?)",
      ],
    });
  });

  it('fails it on a missing required property', () => {
    expect(validate((stack) => fn(stack, { Role: undefined }))).toEqual({
      failed: true,
      findings: ["F3003 error Fn.Properties: Properties: 'Role' is a required property"],
    });
  });

  it('fails it on a wrong primitive type, in a nested struct too', () => {
    expect(validate((stack) => fn(stack, { Timeout: 'thirty' }))).toEqual({
      failed: true,
      findings: ["F3012 error Fn.Properties.Timeout: Timeout: 'thirty' is not of type 'integer'"],
    });
    expect(validate((stack) => fn(stack, { Environment: { Variables: { A: { B: 1 } } } })).failed).toBe(true);
  });

  it('fails it on a value out of range', () => {
    expect(validate((stack) => fn(stack, { Timeout: 100_000 })).findings).toContain(
      'F3034 error Fn.Properties.Timeout: Timeout: 100000 is greater than the maximum of 5400',
    );
  });

  it('fails it on an unknown resource type', () => {
    expect(validate((stack) => new CfnResource(stack, 'Queue', { type: 'AWS::SQS::Queueue' }))).toEqual({
      failed: true,
      findings: ["F3006 error Queue: Unknown resource type 'AWS::SQS::Queueue'"],
    });
  });

  it('fails it on a Ref, a GetAtt or a Sub naming nothing', () => {
    const ref = validate((stack) => fn(stack, { Description: { Ref: 'Nothing' } }));
    expect(ref.failed).toBe(true);
    expect(ref.findings).toEqual([
      expect.stringMatching(/^F1020 error Fn.Properties.Description: .*'Nothing'/),
    ]);
    expect(validate((stack) => fn(stack, { Role: { 'Fn::GetAtt': ['Rolee', 'Arn'] } }))).toEqual({
      failed: true,
      findings: ["F1020 error Fn: Fn::GetAtt references non-existent resource 'Rolee'"],
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation Fn::Sub string
    const sub = 'index.${Other}';
    expect(validate((stack) => fn(stack, { Handler: { 'Fn::Sub': sub } })).failed).toBe(true);
  });

  it('fails it on a GetAtt of an attribute the type does not have', () => {
    expect(validate((stack) => fn(stack, { Role: { 'Fn::GetAtt': ['Role', 'Arnn'] } }))).toEqual({
      failed: true,
      findings: ["E9004 error Fn.Properties.Role: Role: 'Arnn' is not one of ['Arn', 'RoleId']"],
    });
  });

  it('fails it on a DependsOn or a Condition naming nothing', () => {
    expect(validate((stack) => fn(stack).addOverride('DependsOn', ['Gone'])).findings).toEqual([
      "E3005 error Fn: DependsOn target 'Gone' does not exist as a resource",
    ]);
    expect(validate((stack) => fn(stack).addOverride('Condition', 'IsProd')).findings).toEqual([
      "E8002 error Fn: Condition 'IsProd' referenced by resource 'Fn' is not defined",
    ]);
  });

  it("reports a warning without failing the synth (the app's templates may have none)", () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = validate((stack) => fn(stack, { PackageType: 'Tarball' }));
    expect(printed).toHaveBeenCalledWith(expect.stringContaining("'Tarball' is not one of"));
    printed.mockRestore();
    expect(result).toEqual({
      failed: false,
      findings: [
        "W3030 warning Fn.Properties.PackageType: PackageType: 'Tarball' is not one of ['Image', 'Zip']",
      ],
    });
  });
});
