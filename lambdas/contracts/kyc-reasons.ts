// Why a verification was decided: a code from a fixed list, each with a message the person may
// see (the status screen and the decision email show it). The reviewer's own free text stays
// internal (the history and the admin queue). Codes are stored and published as they are: rename
// none, add new ones (docs/decisions/0058-decision-reasons-and-new-attempts.md).

/** Who may pick a code: a reviewer's decision, or Persona's automatic result. */
type ReasonSource = 'admin' | 'persona';

interface ReasonDefinition {
  decision: 'approved' | 'rejected';
  source: ReasonSource;
  /** What the reviewer picks from (the admin queue). */
  label: string;
  /** What the person reads, a whole sentence. */
  message: string;
}

export const decisionReasons = {
  identity_confirmed: {
    decision: 'approved',
    source: 'admin',
    label: 'Identity confirmed by a reviewer',
    message: 'A reviewer confirmed your identity from the documents you submitted.',
  },
  document_unreadable: {
    decision: 'rejected',
    source: 'admin',
    label: 'Document photo unreadable',
    message: 'The photo of the document was unreadable.',
  },
  document_expired: {
    decision: 'rejected',
    source: 'admin',
    label: 'Document expired',
    message: 'The identity document had expired.',
  },
  document_not_accepted: {
    decision: 'rejected',
    source: 'admin',
    label: 'Document type not accepted',
    message: 'This type of identity document is not accepted. Use a passport or a national identity card.',
  },
  selfie_mismatch: {
    decision: 'rejected',
    source: 'admin',
    label: 'Selfie does not match the document',
    message: 'The selfie did not match the photo on the document.',
  },
  details_mismatch: {
    decision: 'rejected',
    source: 'admin',
    label: 'Name does not match the registration',
    message: 'The name on the document does not match the name given at registration.',
  },
  organization_not_confirmed: {
    decision: 'rejected',
    source: 'admin',
    label: 'Role at the organization not confirmed',
    message: 'We could not confirm your role at the organization you registered.',
  },
  checks_passed: {
    decision: 'approved',
    source: 'persona',
    label: 'Automatic checks passed',
    message: 'The automatic checks confirmed your identity.',
  },
  checks_declined: {
    decision: 'rejected',
    source: 'persona',
    label: 'Automatic checks declined',
    message:
      'The automatic checks could not confirm your identity from the document and selfie you submitted.',
  },
  checks_failed: {
    decision: 'rejected',
    source: 'persona',
    label: 'Automatic checks not completed',
    message: 'The verification could not be completed: the document or the selfie could not be captured.',
  },
} as const satisfies Record<string, ReasonDefinition>;

/**
 * Each reason in German (ADR 0089): the label the German admin queue shows, and the sentence the
 * person reads on the German status screen and in a German decision email.
 */
export const germanDecisionReasons: Record<DecisionReasonCode, { label: string; message: string }> = {
  identity_confirmed: {
    label: 'Identität durch das Prüfteam bestätigt',
    message: 'Eine Prüferin oder ein Prüfer hat Ihre Identität anhand der eingereichten Dokumente bestätigt.',
  },
  document_unreadable: {
    label: 'Foto des Dokuments nicht lesbar',
    message: 'Das Foto des Dokuments war nicht lesbar.',
  },
  document_expired: {
    label: 'Dokument abgelaufen',
    message: 'Das Ausweisdokument war abgelaufen.',
  },
  document_not_accepted: {
    label: 'Dokumentart nicht akzeptiert',
    message:
      'Diese Art von Ausweisdokument wird nicht akzeptiert. Verwenden Sie einen Reisepass oder einen Personalausweis.',
  },
  selfie_mismatch: {
    label: 'Selfie passt nicht zum Dokument',
    message: 'Das Selfie stimmte nicht mit dem Foto auf dem Dokument überein.',
  },
  details_mismatch: {
    label: 'Name stimmt nicht mit der Registrierung überein',
    message:
      'Der Name auf dem Dokument stimmt nicht mit dem bei der Registrierung angegebenen Namen überein.',
  },
  organization_not_confirmed: {
    label: 'Rolle in der Organisation nicht bestätigt',
    message: 'Wir konnten Ihre Rolle in der registrierten Organisation nicht bestätigen.',
  },
  checks_passed: {
    label: 'Automatische Prüfungen bestanden',
    message: 'Die automatischen Prüfungen haben Ihre Identität bestätigt.',
  },
  checks_declined: {
    label: 'Automatische Prüfungen abgelehnt',
    message:
      'Die automatischen Prüfungen konnten Ihre Identität anhand des eingereichten Dokuments und Selfies nicht bestätigen.',
  },
  checks_failed: {
    label: 'Automatische Prüfungen nicht abgeschlossen',
    message:
      'Die Prüfung konnte nicht abgeschlossen werden: Das Dokument oder das Selfie konnte nicht erfasst werden.',
  },
};

export type DecisionReasonCode = keyof typeof decisionReasons;
export const decisionReasonCodes = Object.keys(decisionReasons) as DecisionReasonCode[];

/** The codes a reviewer may choose for a decision, in the order the queue lists them. */
export function reviewerReasonCodes(decision: 'approved' | 'rejected'): DecisionReasonCode[] {
  return decisionReasonCodes.filter(
    (code) => decisionReasons[code].source === 'admin' && decisionReasons[code].decision === decision,
  );
}

export const reviewerReasonCodeList = decisionReasonCodes.filter(
  (code) => decisionReasons[code].source === 'admin',
) as [DecisionReasonCode, ...DecisionReasonCode[]];

export function isDecisionReasonCode(value: unknown): value is DecisionReasonCode {
  return typeof value === 'string' && Object.hasOwn(decisionReasons, value);
}

/** A decision's reason as the person sees it (`GET /api/me`'s `kycReason`). */
export interface DecisionReason {
  code: DecisionReasonCode;
  message: string;
}

export function decisionReasonOf(code: string | null | undefined): DecisionReason | null {
  return isDecisionReasonCode(code) ? { code, message: decisionReasons[code].message } : null;
}

/** A person's verification attempts: the first, and each new one a reviewer allows after a rejection. */
export const maxVerificationAttempts = 3;
