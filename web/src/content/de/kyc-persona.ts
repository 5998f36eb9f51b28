// Copy of /kyc/persona, on its own: the route's whole signed-in load is budgeted (200 KiB gzip,
// docs/performance.md), so it carries none of the other identity-verification screens' words
// (those are in ./kyc.ts).
import type * as en from '#web/content/kyc-persona.ts';
import type { Localized } from '#web/content/localized.ts';

export const kycPersonaCopy = {
  title: 'Identitätsprüfung',
  preparing: 'Ihre Prüfung wird vorbereitet …',
  inProgress: 'Ihre Prüfung ist im Persona-Fenster geöffnet. Folgen Sie den Schritten dort.',
  dialogLabel: 'Identitätsprüfung mit Persona',
  frameTitle: 'Bestätigen Sie Ihre Identität',
  submitted: 'Prüfung erfolgreich abgesendet.',
  canceled: 'Prüfung abgebrochen',
  startFailed: 'Die Prüfung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.',
  failed: 'Die Prüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  moduleFailed: 'Das Prüfmodul konnte nicht geladen werden.',
  emailNotVerified: 'Bitte bestätigen Sie Ihre E-Mail-Adresse, bevor Sie die Prüfung starten.',
} as const satisfies Localized<typeof en.kycPersonaCopy>;
