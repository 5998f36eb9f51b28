import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

// Business metrics in CloudWatch embedded metric format: registrations, consents, webhook
// outcomes, status changes. `httpHandler` and the event targets flush them per invocation.
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Platform',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'platform-api',
});

export function countMetric(name: string, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

export function flushMetrics(): void {
  // An invocation without metrics must not emit an empty-metrics warning.
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
