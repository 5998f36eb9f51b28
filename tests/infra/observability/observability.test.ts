import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { funnelMetrics } from '#infra/observability/funnel-metrics.ts';
import { logPatterns, operationsNamespace } from '#infra/observability/observability.ts';
import { eventRules } from '#lambdas/event-rules.ts';
import { isAuth0M2mKey } from '#lambdas/grants.ts';
import { routes } from '#lambdas/routes.ts';
import { synthPlatform } from '#tests/infra/synth.ts';

const { backend } = synthPlatform({ alarmEmail: 'oncall@platform.example' });
const alarms = Object.values(backend.findResources('AWS::CloudWatch::Alarm'));
const topicId = Object.keys(backend.findResources('AWS::SNS::Topic'))[0] as string;
const functionIds = Object.keys(backend.findResources('AWS::Lambda::Function'));
const alarmsOn = (metricName: string) => alarms.filter((a) => a.Properties.MetricName === metricName);
const dimensionRef = (alarm: (typeof alarms)[number]) => alarm.Properties.Dimensions?.[0]?.Value?.Ref;

describe('the alarm topic', () => {
  it('is encrypted with a rotating key CloudWatch may use, refuses non-TLS publishing, and mails the operators', () => {
    const topic = backend.findResources('AWS::SNS::Topic')[topicId];
    const keyId = topic?.Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = backend.findResources('AWS::KMS::Key')[keyId];
    expect(key?.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key?.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const [policy] = Object.values(backend.findResources('AWS::SNS::TopicPolicy'));
    expect(policy?.Properties.Topics).toEqual([{ Ref: topicId }]);
    expect(policy?.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]),
    );
    backend.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@platform.example',
    });
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});

describe('the alarms', () => {
  it('are named as docs/operating.md names them, every one of them and no other', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/operating.md', import.meta.url)), 'utf8');
    const section = doc.slice(doc.indexOf('## Alarms and what to do'), doc.indexOf('## Replaying events'));
    const headings = [...section.matchAll(/^### `([^`]+)`/gm)].map((m) => m[1] as string);
    const ids = (defs: readonly { id: string }[]) => defs.map((d) => d.id).join('|');
    const patterns = headings.map(
      (heading) =>
        new RegExp(
          `^${heading
            .replace('<stage>', 'dev')
            .replace('<Function>', `(${ids([...routes, ...eventRules])})`)
            .replace('<Rule>', `(${ids(eventRules)})`)}$`,
        ),
    );
    const names = alarms.map((a) => a.Properties.AlarmName as string);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !patterns.some((p) => p.test(name)))).toEqual([]);
    expect(headings.filter((_, i) => !names.some((name) => patterns[i]?.test(name)))).toEqual([]);
  });

  it('watch the API 5xx rate over 5 minutes, once there is enough traffic', () => {
    const [rate] = alarms.filter((a) => JSON.stringify(a.Properties.Metrics ?? []).includes('5xx'));
    expect(rate?.Properties.Threshold).toBe(1);
    const expression = rate?.Properties.Metrics.find((m: { Expression?: string }) => m.Expression);
    expect(expression.Expression).toMatch(/IF\(requests >= \d+, 100 \* errors \/ requests, 0\)/);
    expect(JSON.stringify(rate?.Properties.Metrics)).toContain('AWS/ApiGateway');
  });

  it('watch errors and throttles of every function', () => {
    for (const metricName of ['Errors', 'Throttles']) {
      const watched = alarmsOn(metricName).map(dimensionRef);
      expect(new Set(watched)).toEqual(new Set(functionIds));
    }
  });

  it('fire as soon as one message waits in any dead-letter queue', () => {
    const depth = alarmsOn('ApproximateNumberOfMessagesVisible');
    expect(depth).toHaveLength(eventRules.length);
    for (const alarm of depth) {
      expect(alarm.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('count webhook signature failures from the webhook function log, as securityEvent writes them', () => {
    const filters = Object.values(backend.findResources('AWS::Logs::MetricFilter')).filter(
      (f) => f.Properties.MetricTransformations[0].MetricName === 'WebhookSignatureFailures',
    );
    expect(filters).toHaveLength(1);
    expect(filters[0]?.Properties.FilterPattern).toBe(logPatterns.signatureFailed);
    expect(JSON.stringify(filters[0]?.Properties.LogGroupName)).toContain('ReceivePersonaWebhook');
    expect(alarmsOn('WebhookSignatureFailures')[0]?.Properties.Namespace).toBe(operationsNamespace);
    // What lambdas/runtime/logger.ts writes for a bad signature, matched the way CloudWatch does.
    const line = {
      level: 'WARN',
      message: 'security event: signature_failed',
      security: true,
      securityEvent: 'signature_failed',
    };
    expect(line.securityEvent).toBe(logPatterns.signatureFailed.match(/"(.+)"/)?.[1]);
    const logger = readFileSync(
      fileURLToPath(new URL('../../../lambdas/runtime/logger.ts', import.meta.url)),
      'utf8',
    );
    expect(logger).toContain('securityEvent: name');
  });

  it("count Auth0 429s from every Auth0-calling function's log, keyed on the adapter's retry line", () => {
    const callers = [...routes, ...eventRules]
      .filter((d) => d.grants.some((g) => g.kind === 'secret' && isAuth0M2mKey(g.secret)))
      .map((d) => d.id);
    const filters = Object.values(backend.findResources('AWS::Logs::MetricFilter')).filter(
      (f) => f.Properties.MetricTransformations[0].MetricName === 'Auth0RateLimited',
    );
    expect(
      filters.map((f) => JSON.stringify(f.Properties.LogGroupName).match(/"(\w+?)Logs/)?.[1]).sort(),
    ).toEqual(callers.sort());
    expect(alarmsOn('Auth0RateLimited')).toHaveLength(1);
  });

  it('count every Auth0 429 the adapter meets, retried or final, with the line the adapter really logs', async () => {
    // Capture what the adapter writes when Auth0 keeps answering 429 (dev mode logs via console).
    vi.stubEnv('POWERTOOLS_DEV', 'true');
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    vi.resetModules();
    const { withBoundedRetry } = await import('#lambdas/adapters/auth0-user-directory.ts');
    // After resetModules: the adapter's own copy of the error class.
    const { ManagementApiError } = await import('#lambdas/adapters/auth0-management-api.ts');
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const rateLimited = () =>
      Promise.reject(
        new ManagementApiError({ operation: 'users.get', status: 429, detail: 'Too Many Requests' }),
      );
    const policy = { maxAttempts: 3, maxElapsedMs: 5_000, requestTimeoutMs: 100, baseDelayMs: 1 };
    await expect(withBoundedRetry('users.get', policy, rateLimited)).rejects.toThrow();
    spy.mockRestore();
    vi.unstubAllEnvs();

    const logged = lines.map((line) => JSON.parse(line) as { message: string; status: number });
    const [, message] = /\$\.message = "([^"]+)"/.exec(logPatterns.auth0RateLimited) ?? [];
    expect(logPatterns.auth0RateLimited).toContain('($.status = 429)');
    // Three attempts: two retried and the final one, each counted by the alarm's filter.
    expect(logged.filter((line) => line.message === message && line.status === 429)).toHaveLength(3);
  });

  it('never alarm on business metrics (a quiet day is not an incident)', () => {
    const business = Object.values(funnelMetrics).flat() as string[];
    for (const alarm of alarms) expect(business).not.toContain(alarm.Properties.MetricName);
  });
});

describe('the onboarding dashboard', () => {
  const body = JSON.stringify(
    Object.values(backend.findResources('AWS::CloudWatch::Dashboard'))[0]?.Properties.DashboardBody,
  );

  it('shows every business metric the handlers emit, in the Platform namespace with the service dimension', () => {
    const handlersDir = fileURLToPath(new URL('../../../lambdas/handlers/', import.meta.url));
    const emitted = new Set<string>();
    for (const file of readdirSync(handlersDir)) {
      const source = readFileSync(`${handlersDir}${file}`, 'utf8');
      for (const match of source.matchAll(/countMetric\('(\w+)'/g)) emitted.add(match[1] as string);
    }
    expect(emitted.size).toBeGreaterThan(10);
    expect([...emitted].sort()).toEqual([...new Set(Object.values(funnelMetrics).flat())].sort());
    for (const name of emitted)
      expect(body).toContain(`\\"Platform\\",\\"${name}\\",\\"service\\",\\"platform-api\\"`);
  });
});
