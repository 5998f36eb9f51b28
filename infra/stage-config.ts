import * as z from 'zod';

// Per-stage deployment values, validated once in bin/ (CDK best practice: config comes in as
// props; nothing below bin/ reads context or the environment).
export const stageConfig = z.strictObject({
  stage: z.string().regex(/^[a-z][a-z0-9-]{1,20}$/, 'lower-case letters, digits and dashes'),
  account: z
    .string()
    .regex(/^\d{12}$/)
    .optional(),
  region: z.string().min(1),
  auth0: z.strictObject({
    domain: z.string().min(1),
    audience: z.string().min(1),
    claimsNamespace: z.url(),
  }),
  logRetentionDays: z.number().int().positive().default(365),
});
export type StageConfig = z.infer<typeof stageConfig>;

/** The example stage: `npm run synth` works offline on a fresh clone with it. */
export const exampleStages: Record<string, z.input<typeof stageConfig>> = {
  dev: {
    stage: 'dev',
    region: 'eu-central-1',
    auth0: {
      domain: 'platform-dev.eu.auth0.com',
      audience: 'https://api.platform.example',
      claimsNamespace: 'https://platform.example/',
    },
  },
};

export function parseStageConfig(raw: unknown): StageConfig {
  const result = stageConfig.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`Invalid stage configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}
