import { Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { synthPlatform, withEverything } from '#tests/infra/synth.ts';

// The same packs bin/app.ts attaches, run on the synthesized app: any finding that is neither
// fixed nor acknowledged beside its resource fails here (so does removing an acknowledgement).
function findings(app: IConstruct) {
  return [new AwsSolutionsChecks(app), new ServerlessChecks(app)].flatMap((pack) =>
    pack.validateScope(app).violations.map((v) => ({
      rule: v.ruleName,
      severity: v.severity,
      resources: v.violatingResources.map((r) => r.constructPath),
    })),
  );
}

// Synthesized once per stage shape, at module load (a full synth takes a few seconds).
const example = synthPlatform().app;
example.synth();
const full = synthPlatform(withEverything).app;
full.synth();

describe('cdk-nag (AwsSolutions and Serverless)', () => {
  it('finds no unacknowledged error or warning in the example stage', () => {
    expect(findings(example)).toEqual([]);
  });

  it('finds none in a stage with a custom domain, a WAF ACL and an alarm email either', () => {
    expect(findings(full)).toEqual([]);
  });

  it('acknowledges nothing for a whole stack or app, and gives every acknowledgement a specific reason', () => {
    const app = full;
    const acknowledgements: { path: string; id: string; reason: string; scope: IConstruct }[] = [];
    for (const node of app.node.findAll()) {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledgements.push({ path: node.node.path, id, reason, scope: node });
        }
      }
    }
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const ack of acknowledgements) {
      expect(Stack.isStack(ack.scope) || ack.scope === app, ack.path).toBe(false);
      expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(40);
    }
    // IAM5 findings are acknowledged one by one, never as a whole rule.
    expect(acknowledgements.filter((a) => /IAM5$/.test(a.id))).toEqual([]);
  });
});
