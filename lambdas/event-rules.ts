import type { Grant } from './grants.ts';

// Every EventBridge rule on the custom bus, once. The CDK events construct and the local
// EventBridge endpoint (local/gateway) both build from this table.

export const eventSources = {
  kyc: 'platform.kyc',
  registration: 'platform.registration',
} as const;

export interface EventPattern {
  source: string[];
  'detail-type': string[];
  /** Matches on detail fields: each key lists the accepted values (EventBridge semantics). */
  detail?: Record<string, (string | number | boolean)[]>;
}

export interface EventRuleDef {
  /** Stable identifier, PascalCase. */
  id: string;
  description: string;
  pattern: EventPattern;
  /** Module under `lambdas/handlers/` exporting `handler`. */
  handler: string;
  grants: Grant[];
  /** Delivery retries before the event goes to the rule's dead-letter queue. */
  retry: { maximumRetryAttempts: number; maximumEventAgeSeconds: number };
  timeoutSeconds?: number;
}

// The rules of DESIGN section 5 (sync-kyc-status, notify-kyc-decision, notify-registration) land
// with their handlers in the backend issue; the shape above already carries them.
export const eventRules: EventRuleDef[] = [];
