import type { KycStatusChanged, RegistrationSubmitted, ServiceRequestSubmitted } from '#contracts/events.ts';
import { defaultApiLocale } from '#contracts/locale.ts';
import { kycApprovedEmail, kycRejectedEmail } from '#lambdas/domain/emails/kyc-emails.ts';
import { registrationNotificationEmail } from '#lambdas/domain/emails/registration-emails.ts';
import { serviceRequestNotificationEmail } from '#lambdas/domain/emails/service-request-emails.ts';
import type { EmailMessage, Mailer, OnceMarker, UserDirectory, UserProfiles } from '#lambdas/domain/ports.ts';

// Event-driven emails. Delivery is at least once, so each email is sent once per event id (for a
// KYC decision: per status change, which the outbox may publish more than once under new event
// ids): the marker is taken before sending and given back if sending fails, so a retry can send.

export type NotifyOutcome = 'sent' | 'duplicate' | 'ignored' | 'user_missing';

async function sendOnce(marker: OnceMarker, mailer: Mailer, eventId: string, message: EmailMessage) {
  if (!(await marker.take(eventId))) return 'duplicate' as const;
  try {
    await mailer.send(message);
  } catch (error) {
    await marker.release(eventId);
    throw error;
  }
  await marker.complete(eventId);
  return 'sent' as const;
}

/**
 * The address and name a decision email goes to: the profile's (ADR 0059), so an email costs no
 * Management API call; Auth0 is asked only for an account without a profile (created outside
 * registration), and this is deferred work: a refusal of the quota retries the event.
 */
export function notifyKycDecision(deps: {
  profiles: Pick<UserProfiles, 'get'>;
  users: () => Promise<Pick<UserDirectory, 'get'>>;
  mailer: Mailer;
  marker: OnceMarker;
  appUrl: string;
}) {
  return async (eventId: string, detail: KycStatusChanged): Promise<NotifyOutcome> => {
    if (detail.status !== 'approved' && detail.status !== 'rejected') return 'ignored';
    const lookup = await deps.profiles.get(detail.userId);
    if (lookup?.kind === 'erased') return 'user_missing';
    const profile = lookup?.profile.email ? lookup.profile : undefined;
    const user = profile ?? (await (await deps.users()).get(detail.userId));
    if (!user?.email) return 'user_missing';
    // The person's latest choice, else the language they registered in, else English (issue 28):
    // both on the profile this reads anyway, so the language costs no read.
    const locale = profile?.preferredLocale ?? profile?.registrationLocale ?? defaultApiLocale;
    const input = { to: user.email, name: user.name, appUrl: deps.appUrl, locale };
    const message =
      detail.status === 'approved'
        ? kycApprovedEmail(input)
        : kycRejectedEmail({ ...input, reasonCode: detail.reasonCode });
    return sendOnce(deps.marker, deps.mailer, detail.changeId ?? eventId, message);
  };
}

export function notifyRegistration(deps: { mailer: Mailer; marker: OnceMarker; operationsEmail: string }) {
  return async (eventId: string, detail: RegistrationSubmitted): Promise<NotifyOutcome> =>
    sendOnce(
      deps.marker,
      deps.mailer,
      eventId,
      registrationNotificationEmail({ to: deps.operationsEmail, ...detail }),
    );
}

/**
 * Operations told of a service request (ADR 0088), once per request id: the request handler
 * publishes again a request it stored but could not queue, under a new event id. In English, the
 * team's language; the requester gets no email of it.
 */
export function notifyServiceRequest(deps: { mailer: Mailer; marker: OnceMarker; operationsEmail: string }) {
  return async (_eventId: string, detail: ServiceRequestSubmitted): Promise<NotifyOutcome> =>
    sendOnce(
      deps.marker,
      deps.mailer,
      `SERVICE_REQUEST#${detail.requestId}`,
      serviceRequestNotificationEmail({ to: deps.operationsEmail, ...detail }),
    );
}
