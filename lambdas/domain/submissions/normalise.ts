// One normalisation for every record of the submissions table, so the byEmail index finds them all.

/** Normalised form used as the identity of an address (domains are case-insensitive; so, in practice, are mailboxes). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
