import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { functionEnv } from '#lambdas/environment.ts';

// Business metrics in CloudWatch embedded metric format: registrations, consents, webhook
// outcomes, status changes. `httpHandler` and the event targets flush them per invocation.
export const metrics = new Metrics({
  namespace: process.env[functionEnv.powertoolsMetricsNamespace] ?? 'Platform',
  serviceName: process.env[functionEnv.powertoolsServiceName] ?? 'platform-api',
});

export function countMetric(name: string, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/**
 * A count with its own dimensions (e.g. the Auth0 Management API calls per purpose), written at
 * once as its own EMF record so the invocation's other metrics keep their dimensions.
 */
export function countMetricBy(name: string, dimensions: Record<string, string>, value = 1): void {
  const single = metrics.singleMetric();
  for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension);
  single.addMetric(name, MetricUnit.Count, value);
}

export function flushMetrics(): void {
  // An invocation without metrics must not emit an empty-metrics warning.
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
