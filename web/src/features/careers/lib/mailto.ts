/** A `mailto:` link with its subject and body percent-encoded (RFC 6068: spaces as %20, not +). */
export function mailtoHref(address: string, message: { subject: string; body: string }): string {
  return `mailto:${address}?subject=${encodeURIComponent(message.subject)}&body=${encodeURIComponent(message.body)}`;
}
