import { kycStatusChanged } from '#contracts/events.ts';
import { createRealtimePublisher } from '#lambdas/adapters/appsync-events-publisher.ts';
import { pushKycDecision } from '#lambdas/domain/kyc/push-decision.ts';
import { eventHandler } from '#lambdas/runtime/event-handler.ts';
import { logger } from '#lambdas/runtime/logger.ts';
import { countMetric } from '#lambdas/runtime/metrics.ts';

// EventBridge target for KycStatusChanged: pushes the new status to the user's channel on the
// realtime API, where their open status screens listen (ADR 0060). A failed publish throws: the
// bus retries, then the rule's dead-letter queue keeps it; the screens poll meanwhile.

const push = pushKycDecision({ realtime: createRealtimePublisher() });

export const handler = eventHandler(
  { name: 'KycStatusChanged', detail: kycStatusChanged },
  async (detail) => {
    const outcome = await push(detail);
    logger.info('kyc decision pushed', { userId: detail.userId, status: detail.status, outcome });
    if (outcome === 'published') countMetric('KycDecisionPushed');
  },
);
