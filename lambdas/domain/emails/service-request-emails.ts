import type { ServiceRequestSubmitted } from '#contracts/events.ts';
import { type ServiceAction, serviceActions } from '#contracts/service-request.ts';
import type { EmailMessage } from '#lambdas/domain/ports.ts';
import { composeEmail } from './html.ts';
import { organizationTypeLabels } from './registration-emails.ts';

/**
 * To the operations address, for a quick action an approved member asked for (ADR 0088). As the
 * registration notice: ids, the action's own title (ours, from the contract) and the organization's
 * name as registered, which operations read as what a registrant typed (ADR 0072). The requester
 * types nothing: there is no free text to carry.
 */
export function serviceRequestNotificationEmail(
  input: { to: string } & ServiceRequestSubmitted,
): EmailMessage {
  const action = serviceActions[input.action as ServiceAction]?.title ?? input.action;
  return composeEmail({
    to: input.to,
    subject: `Service request: ${action} (${input.organizationName})`,
    heading: 'An organization asked for a service',
    paragraphs: [
      { text: `Action: ${action}` },
      { text: `Organization: ${input.organizationName}` },
      { text: `Type: ${organizationTypeLabels[input.organizationType]}` },
      { text: `Organization id: ${input.organizationId}` },
      { text: `Requested by user id: ${input.requestedBy}` },
      { text: `Request id: ${input.requestId}` },
      { text: `Requested at: ${input.occurredAt}` },
      { text: `Answer by: ${input.answerBy} (the dashboard promised the requester this date)` },
    ],
  });
}
