// Persona's identifiers as the admin workspace shows them (ADR 0082): its verification kinds,
// check names and statuses are slugs, made readable the same way everywhere, never guessed at.

/** `selfie_id_comparison` -> "Selfie id comparison". */
export function readable(slug: string): string {
  const words = slug.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
