// Helpers of the stack tests that send Persona webhooks: users enrolled as the webhook path needs
// them (consent + an inquiry), signed inquiry events, and delivery through the web origin as
// Persona posts through CloudFront.

// Shared with the bench (scripts/lib/local-stack-client.ts), re-exported for the tests.
export {
  type EnrolledUser,
  enrolledUser,
  enrolledUsers,
  identityVerificationConsent,
  personaEvent,
  sendWebhook,
  settleEvents,
  webApi,
} from '#scripts/lib/local-stack-client.ts';

/** Fisher-Yates with the given random source (seeded in the load suites, so a run can be replayed). */
export function shuffle<T>(items: T[], random: () => number = Math.random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
