import type * as en from '#web/content/admin.ts';
import type { Localized } from '#web/content/localized.ts';
import { organizationTypeNames } from '#web/content/organization.ts';

// Copy of the admins' verification review queue (/admin/verification).

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The current administrator, as the actor of an entry ("Durch Sie") and of a proposal ("Sie haben …"). */
const you = 'Sie';
const verb = (decision: 'approved' | 'rejected') => (decision === 'approved' ? 'freizugeben' : 'abzulehnen');

export const adminCopy = {
  title: 'Prüfungsübersicht',
  intro:
    'Identitätsprüfungen, über die ein Mensch entscheiden muss, und die bereits getroffenen Entscheidungen. Eine Entscheidung teilt der Person den von Ihnen gewählten Grund mit, per E-Mail und auf ihrer Statusseite; Ihre Notiz bleibt im Prüfverlauf.',
  filter: {
    label: 'Nach Status filtern',
    options: {
      pending: 'Offen',
      approved: 'Freigegeben',
      rejected: 'Abgelehnt',
      all: 'Alle',
    },
  },
  listHeading: {
    pending: 'In Prüfung',
    approved: 'Freigegeben',
    rejected: 'Abgelehnt',
    all: 'Alle Prüfungen',
  },
  count: (count: number) => plural(count, 'Prüfung', 'Prüfungen'),
  /** One page of more (ADR 0082): the count is the page's. */
  countOnPage: (count: number) => `${plural(count, 'Prüfung', 'Prüfungen')} auf dieser Seite`,
  truncated:
    'Die Suche wurde nach den ersten 5.000 Prüfungen dieses Filters beendet: Die nächste Seite sucht weiter.',
  refresh: 'Aktualisieren',
  refreshing: 'Wird aktualisiert …',
  updated: 'Aktualisiert',
  loading: 'Prüfungen werden geladen …',
  empty: {
    pending: 'Keine Prüfungen warten auf eine Entscheidung.',
    approved: 'Keine freigegebenen Prüfungen.',
    rejected: 'Keine abgelehnten Prüfungen.',
    all: 'Noch keine Prüfungen.',
  },
  loadFailed: {
    title: 'Die Prüfungen konnten nicht geladen werden',
    body: 'Bitte versuchen Sie es gleich noch einmal.',
    retry: 'Erneut versuchen',
  },
  refreshFailed: 'Die Liste konnte nicht aktualisiert werden; sie zeigt die zuvor geladenen Prüfungen.',
  status: {
    not_started: 'Nicht begonnen',
    pending: 'In Prüfung',
    approved: 'Freigegeben',
    rejected: 'Abgelehnt',
  },
  segment: { commercial: 'Kommerziell', defense: 'Verteidigung und Behörden' },
  organizationType: organizationTypeNames,
  facts: {
    segment: 'Segment',
    organizationType: 'Art der Organisation',
    contact: 'Kontakt',
    website: 'Website',
    inquiry: 'Anfrage-ID',
    status: 'Status',
    updated: 'Letzte Änderung',
    userId: 'Nutzer-ID',
    reason: 'Angegebener Grund',
    attempt: 'Versuch',
  },
  attempt: (used: number, max: number) => `${used} von ${max}`,
  notSubmitted:
    'Nicht eingereicht: Die Person hat noch keine Identitätsprüfung abgeschlossen, es gibt also noch nichts zu entscheiden.',
  ownVerification: 'Dies ist Ihre eigene Prüfung: Ein anderer Administrator entscheidet darüber.',
  notOnFile: 'Nicht hinterlegt',
  noRegistration: 'Keine Registrierung hinterlegt',
  noInquiry: 'Noch keine Anfrage',
  history: {
    summary: (count: number) => `Verlauf (${plural(count, 'Änderung', 'Änderungen')})`,
    empty: 'Noch keine Statusänderungen erfasst.',
    to: 'nach',
    by: 'Durch',
    persona: 'Persona',
    you,
    // Follows "Durch" ("Durch die Person …"), hence lower case.
    user: 'die Person (neuer Versuch)',
    admin: (adminId: string) => `Administrator (${adminId})`,
    reason: 'Notiz',
    reasonCode: 'Angegebener Grund',
    event: 'Ereignis',
    newAttemptAllowed: 'Neuer Versuch erlaubt',
    /** Four-eyes (ADR 0080): a reviewer's proposal, not yet the status. */
    proposed: (status: string) => `Vorgeschlagen: ${status} (wartet auf einen zweiten Administrator)`,
    /** Persona decided after a reviewer: recorded, and the reviewer's decision stays. */
    decisionHeld: (personaStatus: string, reviewerStatus: string) =>
      `Persona hat „${personaStatus}“ entschieden; die Entscheidung der Prüferin oder des Prüfers (${reviewerStatus}) bleibt bestehen`,
  },
  checks: {
    /** ADR 0082: Persona's verifications and their failed checks, loaded when opened. */
    summary: 'Warum Persona sie markiert hat',
    /** ADR 0082's amendment: the failed checks' names on the card, from the last webhook event. */
    flagged: 'Von Persona markiert',
    loading: 'Prüfschritte von Persona werden geladen …',
    failed: 'Die Prüfschritte von Persona konnten nicht geladen werden.',
    retry: 'Erneut versuchen',
    inquiryStatus: (status: string) => `Status der Persona-Anfrage: ${status}`,
    redacted:
      'Persona hat die personenbezogenen Daten dieser Anfrage gelöscht; deren Prüfschritte können nicht mehr angezeigt werden.',
    noVerifications: 'Persona hat zu dieser Anfrage noch keine Prüfung.',
    noneFailed: 'Kein Prüfschritt ist fehlgeschlagen.',
    verification: (type: string, status: string) => `Prüfung ${type}: ${status}`,
  },
  persona: {
    open: 'In Persona öffnen',
    /** Read after the visible text: which inquiry, and that it opens in a new tab. */
    details: (inquiryId: string) => ` (Anfrage ${inquiryId}, öffnet in einem neuen Tab)`,
  },
  search: {
    label: 'Nach Organisation oder E-Mail suchen',
    submit: 'Suchen',
    clear: 'Suche zurücksetzen',
    hint: 'Mindestens 2 Zeichen.',
  },
  sort: {
    label: 'Reihenfolge',
    newest: 'Neueste Änderung zuerst',
    oldest: 'Älteste Änderung zuerst',
  },
  pages: {
    label: 'Seiten',
    first: 'Erste Seite',
    next: 'Nächste Seite',
  },
  details: {
    show: 'Details anzeigen',
    hide: 'Details ausblenden',
    decided: (by: string, when: string) =>
      by === you ? `Von Ihnen entschieden, ${when}` : `Entschieden durch ${by}, ${when}`,
  },
  noMatch: (q: string) => `Keine Prüfung dieses Filters passt zu „${q}“.`,
  matching: (heading: string, q: string) => `${heading}: Treffer für „${q}“`,
  trail: {
    summary: 'Revisionsprotokoll',
    loading: 'Das Revisionsprotokoll wird geladen …',
    failed: 'Das Revisionsprotokoll konnte nicht geladen werden.',
    retry: 'Erneut versuchen',
    empty: 'Noch kein Administrator hat an dieser Prüfung etwas geändert.',
    truncated: (count: number) =>
      count === 1
        ? 'Der neueste Eintrag; npm run audit:admin exportiert alle.'
        : `Die neuesten ${count} Einträge; npm run audit:admin exportiert alle.`,
    by: 'Durch',
    you,
    admin: (id: string) => `Administrator (${id})`,
    operator: (id: string) => `Betreiber (${id})`,
    member: (id: string) => `Mitglied der Organisation (${id})`,
    reasonCode: 'Angegebener Grund',
    reason: 'Begründung',
    entry: (sequence: number) => `Eintrag Nr. ${sequence}`,
    action: {
      verification_proposed: 'Entscheidung vorgeschlagen (wartet auf einen zweiten Administrator)',
      verification_decided: 'Entschieden',
      verification_reversed: 'Entscheidung rückgängig gemacht',
      new_attempt_allowed: 'Neuer Versuch erlaubt',
      erasure_run: 'Daten gelöscht',
      role_changed: 'Rolle geändert',
      provisioning_applied: 'Identitätskonfiguration angewendet',
      member_invited: 'Kollegin oder Kollege eingeladen',
      invitation_resent: 'Einladung erneut gesendet',
      invitation_revoked: 'Einladung widerrufen',
      member_joined: 'Der Organisation beigetreten',
      member_role_changed: 'Rolle in der Organisation geändert',
      member_removed: 'Aus der Organisation entfernt',
    },
  },
  decision: {
    label: (subject: string) => `Entscheidung zu ${subject}`,
    reasonCode: 'Grund, den die Person sieht',
    reasonCodePlaceholder: 'Grund auswählen',
    reasonCodeHint: 'Die Person liest diesen Grund auf ihrer Statusseite und in der E-Mail zur Entscheidung.',
    reasonCodeOption: (decision: 'approved' | 'rejected', label: string) =>
      `${decision === 'approved' ? 'Freigeben' : 'Ablehnen'}: ${label}`,
    reason: 'Interne Notiz (optional)',
    reasonHint: 'Bis zu 1000 Zeichen. Wird im Prüfverlauf gespeichert und der Person nie angezeigt.',
    approve: 'Freigeben',
    reject: 'Ablehnen',
    approving: 'Wird freigegeben …',
    rejecting: 'Wird abgelehnt …',
  },
  newAttempt: {
    label: (subject: string) => `Neuer Versuch für ${subject}`,
    reason: 'Warum ein neuer Versuch',
    reasonHint:
      'Pflichtangabe: 3 bis 1000 Zeichen. Wird im Prüfverlauf gespeichert und der Person nie angezeigt.',
    allow: 'Neuen Versuch erlauben',
    allowing: 'Wird erlaubt …',
    allowed: 'Ein neuer Versuch ist erlaubt: Die Person kann ihn auf ihrer Statusseite starten.',
    exhausted: (max: number) =>
      max === 1
        ? 'Der einzige Versuch ist aufgebraucht: Ein neuer Versuch kann nicht erlaubt werden.'
        : `Alle ${max} Versuche sind aufgebraucht: Ein neuer Versuch kann nicht erlaubt werden.`,
    done: 'Neuer Versuch erlaubt',
    doneBody: (subject: string) =>
      `${subject} kann die Prüfung jetzt über die eigene Statusseite wiederholen.`,
  },
  proposal: {
    /** Four-eyes (ADR 0080): a decision waiting for a second administrator. */
    label: 'Wartet auf einen zweiten Administrator',
    text: (decision: 'approved' | 'rejected', by: string) =>
      by === you
        ? `Sie haben vorgeschlagen, diese Prüfung ${verb(decision)}.`
        : `${by} hat vorgeschlagen, diese Prüfung ${verb(decision)}.`,
    own: 'Ein anderer Administrator muss den Vorschlag bestätigen.',
    others: 'Wählen Sie dieselbe Entscheidung, um den Vorschlag zu bestätigen.',
    done: 'Entscheidung vorgeschlagen',
    doneBody: (subject: string, decision: 'approved' | 'rejected') =>
      `Ihr Vorschlag, ${subject} ${verb(decision)}, ist erfasst. Der Status ändert sich, sobald ein anderer Administrator ihn bestätigt.`,
    sameReviewer: 'Zweiter Administrator erforderlich',
    sameReviewerBody:
      'Sie haben diese Entscheidung vorgeschlagen. Ein anderer Administrator muss sie bestätigen.',
  },
  decided: {
    approved: 'Prüfung freigegeben',
    rejected: 'Prüfung abgelehnt',
    body: (subject: string, status: 'approved' | 'rejected') =>
      `Die Prüfung von ${subject} ist jetzt ${status === 'approved' ? 'freigegeben' : 'abgelehnt'}. Die Person erhält eine E-Mail mit dem Grund.`,
  },
  conflict: {
    title: 'Prüfung geändert',
    body: 'Diese Prüfung hat sich geändert, während Sie entschieden haben. Die Liste wurde neu geladen: Bitte prüfen Sie sie erneut.',
  },
  gone: {
    title: 'Prüfung nicht gefunden',
    body: 'Für diese Person gibt es keine Prüfung mehr. Die Liste wurde neu geladen.',
  },
  failed: {
    title: 'Entscheidung nicht gespeichert',
    body: 'Ihre Entscheidung konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.',
  },
  rateLimited: (seconds: number) =>
    `Zu viele Entscheidungen in kurzer Zeit. Bitte versuchen Sie es in ${plural(seconds, 'Sekunde', 'Sekunden')} erneut.`,
} as const satisfies Localized<typeof en.adminCopy>;
