import { readFileSync } from 'node:fs';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { synthPlatform } from '#tests/infra/synth.ts';

// A failed first create must leave nothing behind (docs/deploying.md, "When the first deploy
// fails"): every resource the platform keeps is RetainExceptOnCreate, none plain Retain.

interface Resource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

function resourcesOf(stacks: (Stack | undefined)[]): (Resource & { stack: string; id: string })[] {
  return stacks.flatMap((stack) =>
    stack
      ? Object.entries(Template.fromStack(stack).toJSON().Resources as Record<string, Resource>).map(
          ([id, resource]) => ({ ...resource, stack: stack.stackName, id }),
        )
      : [],
  );
}

const shapes = {
  'the example stage (with its edge stack)': synthPlatform().stacks,
  'a stage with a custom domain, its own web ACL and an alarm email': synthPlatform({
    siteUrl: 'https://app.platform.example',
    domainName: 'app.platform.example',
    certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/12345678-1234-1234-1234-123456789012',
    webAclArn:
      'arn:aws:wafv2:us-east-1:111111111111:global/webacl/platform/12345678-1234-1234-1234-123456789012',
    alarmEmail: 'oncall@platform.example',
  }).stacks,
};

describe('what a stack keeps', () => {
  for (const [shape, stacks] of Object.entries(shapes)) {
    const resources = resourcesOf([stacks.data, stacks.backend, stacks.edge, stacks.site]);

    it(`keeps nothing a failed first create made, in ${shape}`, () => {
      expect(resources.filter((r) => r.DeletionPolicy === 'Retain').map((r) => `${r.stack}/${r.id}`)).toEqual(
        [],
      );
    });

    it(`retains the data, secrets, buckets, key and logs on update and delete, in ${shape}`, () => {
      const kept = resources.filter((r) => r.DeletionPolicy === 'RetainExceptOnCreate');
      const count = (type: string) => kept.filter((r) => r.Type === type).length;
      // Six Auth0 applications' credentials (ADR 0034, 0084), Persona's two, the origin secret.
      expect(count('AWS::SecretsManager::Secret')).toBe(9);
      expect(count('AWS::DynamoDB::GlobalTable')).toBe(4);
      expect(count('AWS::S3::Bucket')).toBe(2);
      expect(count('AWS::Logs::LogGroup')).toBeGreaterThan(20);
      // Log groups too, but for the realtime API's, named after the API and deleted with it.
      for (const type of ['AWS::SecretsManager::Secret', 'AWS::DynamoDB::GlobalTable', 'AWS::S3::Bucket'])
        expect(
          resources.filter((r) => r.Type === type && r.DeletionPolicy !== 'RetainExceptOnCreate'),
        ).toEqual([]);
      for (const resource of kept) expect(resource.UpdateReplacePolicy, resource.id).toBe('Retain');
    });
  }

  it('keeps the alarm topic key of a stage with an alarm email', () => {
    const keys = resourcesOf([
      synthPlatform({ alarmEmail: 'oncall@platform.example' }).stacks.backend,
    ]).filter((r) => r.Type === 'AWS::KMS::Key');
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.DeletionPolicy).toBe('RetainExceptOnCreate');
  });
});

describe('what docs/operating.md says a torn-down stage leaves', () => {
  it('counts the backend log groups it keeps as the template does', () => {
    const doc = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
    const stated = Number(/\| `Platform-<stage>-Backend` \| the (\d+) log groups/.exec(doc)?.[1]);
    const kept = resourcesOf([synthPlatform().stacks.backend]).filter(
      (r) => r.Type === 'AWS::Logs::LogGroup' && r.DeletionPolicy === 'RetainExceptOnCreate',
    );
    expect(stated).toBe(kept.length);
  });
});
