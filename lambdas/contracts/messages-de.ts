import type { decisionMessages, listVerificationsMessages } from './admin-verifications.ts';
import type { businessEmailMessages } from './business-email.ts';
import type { emailMessages } from './common.ts';
import type { consentMessages } from './consent.ts';
import type { contactMessages } from './contact.ts';
import type { cookieConsentMessages } from './cookie-consent.ts';
import type { dataDeletionMessages } from './data-deletion.ts';
import type { ApiLocale } from './locale.ts';
import type { messageFieldMessages } from './message-fields.ts';
import type { organizationMessages } from './organization.ts';
import type { organizationTeamMessages } from './organization-team.ts';
import {
  errorMessages,
  fieldMessages,
  identityProviderRetrySeconds,
  type MessageTemplateName,
  messageTemplates,
  type ProblemTitle,
  problemDetails,
  serviceRetrySeconds,
  type WaitUnit,
} from './problem-messages.ts';
import type { registrationMessages } from './registration.ts';
import type { serviceRequestMessages } from './service-request.ts';

// The German of every message the API answers with (issue 28, ADR 0089): problem titles and
// details, the errors' messages, and the contracts' field messages, keyed by their English. The
// HTTP layer localizes a problem with `localizeMessage` when the request negotiates `de`; the web
// shows a zod issue's message in German with the same function. The contracts are imported for
// their types only: this module brings no schema into a bundle, only the German, the templates
// and #contracts/problem-messages.ts (the English of the problems, which it pairs by name).

type ValueOf<T> = T[keyof T];

/**
 * Every English message the contracts write as a literal, keyed by itself below: a missing German
 * for any of them fails the typecheck. (The problems' own details, errors' messages and field
 * messages are keyed by their name in #contracts/problem-messages.ts instead, which every
 * function bundles anyway, so their English is not in a bundle twice; the mapped types below hold
 * them to the same rule.)
 */
export type EnglishMessage =
  | ProblemTitle
  | ValueOf<typeof registrationMessages>
  | ValueOf<typeof consentMessages>
  | ValueOf<typeof businessEmailMessages>
  | ValueOf<typeof emailMessages>
  | ValueOf<typeof messageFieldMessages>
  | ValueOf<typeof contactMessages>
  | ValueOf<typeof decisionMessages>
  | ValueOf<typeof listVerificationsMessages>
  | ValueOf<typeof cookieConsentMessages>
  | ValueOf<typeof dataDeletionMessages>
  | ValueOf<typeof organizationMessages>
  | ValueOf<typeof organizationTeamMessages>
  | ValueOf<typeof serviceRequestMessages>;

const germanProblemDetails: { readonly [Key in keyof typeof problemDetails]: string } = {
  internalError: 'Bei uns ist ein Fehler aufgetreten.',
  verificationProviderUnavailable:
    'Der Dienst für die Identitätsprüfung ist derzeit nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.',
  identityProviderUnavailable: `Unser Anmeldedienst ist ausgelastet. Bitte versuchen Sie es in ${identityProviderRetrySeconds} Sekunden erneut.`,
  consentLedgerBusy:
    'Ihre Einwilligung konnte gerade nicht gespeichert werden. Bitte versuchen Sie es erneut.',
  serviceUnavailable: `Die Anfrage konnte gerade nicht verarbeitet werden. Bitte versuchen Sie es in ${serviceRetrySeconds} Sekunden erneut.`,
};

const germanErrorMessages: { readonly [Key in keyof typeof errorMessages]: string } = {
  invalidJson: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  notAnObject: 'Der Inhalt der Anfrage muss ein JSON-Objekt sein.',
  invalidFields: 'Die Anfrage enthält ungültige Felder.',
  invalidQuery: 'Die Abfrage enthält ungültige Parameter.',
  invalidEventFields: 'Das Ereignis enthält ungültige Felder.',
  invalidSignature: 'Der Header Persona-Signature fehlt oder ist ungültig.',
  unauthorized: 'Bitte melden Sie sich an.',
  originNotVerified: 'Rufen Sie die API über die Website auf, nicht über ihren Ursprungsserver.',
  adminRequired: 'Für diese Aktion ist die Administratorrolle erforderlich.',
  unsupportedMediaType: 'Senden Sie den Inhalt der Anfrage als application/json.',
  notOwnAccount: 'Sie können nur für Ihr eigenes Konto handeln.',
  organizationMismatch:
    'Melden Sie sich über diese Organisation an: Das Token gilt für eine andere Organisation oder für keine.',
  organizationRoleRequired: 'Ihre Rolle in dieser Organisation erlaubt dies nicht.',
  organizationNotFound: 'Diese Organisation gibt es nicht.',
  emailNotVerified: 'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse und versuchen Sie es dann erneut.',
  organizationMembershipEnded:
    'Sie sind nicht mehr Mitglied dieser Organisation. Bitten Sie die Administration der Organisation, Sie erneut einzuladen.',
  approvalRequiredToInvite:
    'Ihre Identitätsprüfung muss genehmigt sein, bevor Sie Kolleginnen und Kollegen einladen können.',
  approvalRequiredForService:
    'Ihre Identitätsprüfung muss genehmigt sein, bevor Sie einen Dienst anfordern können.',
  serviceActionNotOffered: 'Diese Schnellaktion gehört nicht zum Dashboard Ihrer Organisation.',
  alreadyMember: 'Diese Person ist bereits Mitglied Ihrer Organisation.',
  memberOfAnotherOrganization:
    'Ihr Konto gehört zu einer anderen Organisation auf der Plattform. Nehmen Sie diese Einladung mit einer anderen E-Mail-Adresse an.',
  invitationPending:
    'Für diese Adresse gibt es bereits eine offene Einladung. Senden Sie diese erneut oder widerrufen Sie sie.',
  invitationNotFound: 'Es gibt keine offene Einladung mit dieser ID.',
  noInvitationForAddress: 'Für Ihre E-Mail-Adresse gibt es keine offene Einladung zu dieser Organisation.',
  memberNotFound: 'Diese Person ist kein Mitglied Ihrer Organisation.',
  lastOrganizationAdmin:
    'Ihre Organisation benötigt mindestens eine Administratorin oder einen Administrator: Ernennen Sie zuerst eine andere Person dazu.',
  cannotRemoveYourself:
    'Sie können sich nicht selbst entfernen: Das kann eine andere Administratorin oder ein anderer Administrator tun.',
  accountNotFound: 'Ihr Konto existiert nicht mehr.',
  deletionConfirmationInvalid:
    'Dieser Bestätigungslink funktioniert nicht: Er ist abgelaufen oder wurde bereits verwendet. Beantragen Sie die Löschung erneut, um einen neuen Link zu erhalten.',
  deletionRequestNotFound: 'Sie haben keinen offenen Löschantrag mit dieser ID.',
  deletionNotCancellable: 'Ihr Löschantrag wird bereits ausgeführt und kann nicht mehr zurückgezogen werden.',
  consentRequired: 'Erteilen Sie zuerst Ihre Einwilligung zur Identitätsprüfung',
  alreadyApproved: 'Ihre Identität ist bereits bestätigt.',
  verificationClosed:
    'Ihre Identitätsprüfung wurde nicht genehmigt. Ein neuer Versuch muss von der Prüfung freigegeben werden: Wenden Sie sich an den Support.',
  verificationNotSubmitted:
    'Zu dieser Identitätsprüfung wurde nichts eingereicht: Es gibt noch nichts zu entscheiden.',
  ownVerification:
    'Über Ihre eigene Identitätsprüfung muss eine andere Administratorin oder ein anderer Administrator entscheiden.',
  secondReviewerRequired:
    'Sie haben diese Entscheidung vorgeschlagen: Eine andere Administratorin oder ein anderer Administrator muss sie bestätigen.',
  verificationNotRejected: 'Nur eine abgelehnte Identitätsprüfung kann einen neuen Versuch erhalten.',
  verificationNotFound: 'Für diese Person gibt es keine Identitätsprüfung.',
  concurrentChange: 'Die Identitätsprüfung wurde gleichzeitig geändert. Bitte versuchen Sie es erneut.',
  consentRefused: 'Die Einwilligung erfordert Ihre Zustimmung zu jeder Erklärung.',
  consentNotActive:
    'Es gibt keine Einwilligung dieser Art, die Sie widerrufen könnten: Sie wurde nie erteilt oder ist bereits widerrufen.',
};

const germanFieldMessages: { readonly [Key in keyof typeof fieldMessages]: string } = {
  invalidInput: 'Ungültige Eingabe',
  notAllowed: 'Dieses Feld ist nicht zulässig.',
};

export const germanLiterals: Readonly<Record<EnglishMessage, string>> = {
  // Problem titles.
  'Bad Request': 'Ungültige Anfrage',
  Unauthorized: 'Nicht angemeldet',
  Forbidden: 'Nicht erlaubt',
  'Email Not Verified': 'E-Mail-Adresse nicht bestätigt',
  'Not Found': 'Nicht gefunden',
  Conflict: 'Konflikt',
  'Consent Required': 'Einwilligung erforderlich',
  Gone: 'Nicht mehr gültig',
  'Payload Too Large': 'Anfrage zu groß',
  'Unsupported Media Type': 'Nicht unterstütztes Format',
  'Too Many Requests': 'Zu viele Anfragen',
  'Internal Server Error': 'Interner Fehler',
  'Bad Gateway': 'Dienst nicht erreichbar',
  'Service Unavailable': 'Dienst nicht verfügbar',
  // decisionMessages (admin-verifications.ts)
  'Choose approved or rejected': 'Wählen Sie „Genehmigen“ oder „Ablehnen“',
  'Choose the reason for the decision': 'Wählen Sie den Grund für die Entscheidung',
  'This reason does not fit the decision': 'Dieser Grund passt nicht zur Entscheidung',
  'Please give a reason': 'Bitte geben Sie einen Grund an',
  'The reason must be at least 3 characters': 'Der Grund muss mindestens 3 Zeichen lang sein',
  'The reason must be at most 1000 characters': 'Der Grund darf höchstens 1000 Zeichen lang sein',
  // listVerificationsMessages (admin-verifications.ts)
  'Use pending, approved, rejected or all': 'Verwenden Sie pending, approved, rejected oder all',
  'Use newest or oldest': 'Verwenden Sie newest oder oldest',
  'This page no longer exists: start again from the first page':
    'Diese Seite gibt es nicht mehr: Beginnen Sie wieder mit der ersten Seite',
  'Search with 2 to 100 characters': 'Suchen Sie mit 2 bis 100 Zeichen',
  // businessEmailMessages (business-email.ts)
  'Business email is required': 'Bitte geben Sie Ihre geschäftliche E-Mail-Adresse ein',
  'Please enter a valid email address': 'Bitte geben Sie eine gültige E-Mail-Adresse ein',
  'Email address must be at most 254 characters': 'Die E-Mail-Adresse darf höchstens 254 Zeichen lang sein',
  'Personal email addresses (Gmail, Yahoo, etc.) are not allowed. Please use your business email.':
    'Private E-Mail-Adressen (Gmail, Yahoo usw.) sind nicht zulässig. Bitte verwenden Sie Ihre geschäftliche E-Mail-Adresse.',
  // emailMessages (common.ts)
  'Please enter your email address': 'Bitte geben Sie Ihre E-Mail-Adresse ein',
  // consentMessages (consent.ts)
  'You must agree to identity verification': 'Sie müssen der Identitätsprüfung zustimmen',
  'You must consent to the processing of biometric data':
    'Sie müssen in die Verarbeitung biometrischer Daten einwilligen',
  'You must confirm that you have read the privacy policy':
    'Sie müssen bestätigen, dass Sie die Datenschutzerklärung gelesen haben',
  'Unknown consent type': 'Unbekannte Art der Einwilligung',
  'Unsupported language': 'Nicht unterstützte Sprache',
  'Unknown document version': 'Unbekannte Dokumentversion',
  // contactMessages (contact.ts)
  'Please enter your name': 'Bitte geben Sie Ihren Namen ein',
  'Name must have at least 2 characters': 'Der Name muss mindestens 2 Zeichen lang sein',
  'Please enter your organization': 'Bitte geben Sie Ihre Organisation ein',
  'Message must be at most 5000 characters': 'Die Nachricht darf höchstens 5000 Zeichen lang sein',
  'Name must be at most 200 characters': 'Der Name darf höchstens 200 Zeichen lang sein',
  'Organization must be at most 200 characters': 'Die Organisation darf höchstens 200 Zeichen lang sein',
  'Please enter a message': 'Bitte geben Sie eine Nachricht ein',
  'Please enter a message of at least 10 characters':
    'Bitte geben Sie eine Nachricht mit mindestens 10 Zeichen ein',
  // cookieConsentMessages (cookie-consent.ts)
  'consentId must be a UUID': 'consentId muss eine UUID sein',
  'analytics must be true or false': 'analytics muss true oder false sein',
  'marketing must be true or false': 'marketing muss true oder false sein',
  'personalization must be true or false': 'personalization muss true oder false sein',
  'revision is required': 'revision ist erforderlich',
  'revision must be at most 64 characters': 'revision darf höchstens 64 Zeichen lang sein',
  'revision may contain letters, digits, dots, colons, dashes and underscores':
    'revision darf nur Buchstaben, Ziffern, Punkte, Doppelpunkte, Bindestriche und Unterstriche enthalten',
  // dataDeletionMessages (data-deletion.ts)
  'Details must be at most 5000 characters': 'Die Angaben dürfen höchstens 5000 Zeichen lang sein',
  'The confirmation link is incomplete': 'Der Bestätigungslink ist unvollständig',
  // organizationTeamMessages (organization-team.ts)
  'Please choose a role': 'Bitte wählen Sie eine Rolle',
  // organizationMessages (organization.ts)
  'Please choose an organization type': 'Bitte wählen Sie die Art der Organisation',
  // registrationMessages (registration.ts)
  'Title must have at least 2 characters': 'Die Position muss mindestens 2 Zeichen lang sein',
  'Phone number must have at least 5 characters': 'Die Telefonnummer muss mindestens 5 Zeichen lang sein',
  'Organization name must have at least 2 characters':
    'Der Name der Organisation muss mindestens 2 Zeichen lang sein',
  'Please enter a valid website URL': 'Bitte geben Sie eine gültige Website-URL ein',
  'You must agree to the terms of service': 'Sie müssen den Allgemeinen Geschäftsbedingungen zustimmen',
  'You must agree to the privacy policy': 'Sie müssen der Datenschutzerklärung zustimmen',
  'You must agree to the non-harmful use policy':
    'Sie müssen der Richtlinie zur nicht schädlichen Nutzung zustimmen',
  // serviceRequestMessages (service-request.ts)
  'Please choose one of the quick actions': 'Bitte wählen Sie eine der Schnellaktionen',
};

const germanUnits: Record<WaitUnit, readonly [one: string, many: string]> = {
  seconds: ['Sekunde', 'Sekunden'],
  minutes: ['Minute', 'Minuten'],
  hours: ['Stunde', 'Stunden'],
};

/** "5 Minuten", "1 Minute": the English unit's German, singular for one. */
const wait = (amount: string, unit: string) => {
  const units = germanUnits[unit as WaitUnit] as (typeof germanUnits)[WaitUnit] | undefined;
  return `${amount} ${units ? (amount === '1' ? units[0] : units[1]) : unit}`;
};

/** The German twin of each template, from the values the English carried (as the English wrote them). */
const germanTemplates: { readonly [Name in MessageTemplateName]: (...values: string[]) => string } = {
  maxCharacters: (max) => `Darf höchstens ${max} Zeichen lang sein`,
  payloadTooLarge: (bytes) => `Der Inhalt der Anfrage darf höchstens ${bytes} Bytes groß sein.`,
  internalError: (reference) =>
    `Bei uns ist ein Fehler aufgetreten. Bitte nennen Sie diese Referenz, wenn Sie uns kontaktieren: ${reference}`,
  tooManyRequests: (amount = '', unit = '') =>
    `Zu viele Anfragen dieser Art von Ihrem Konto. Bitte versuchen Sie es in ${wait(amount, unit)} erneut.`,
  verificationEmailTooSoon: (seconds = '') =>
    `Vor weniger als einer Minute wurde bereits eine Bestätigungs-E-Mail gesendet. Prüfen Sie Ihren Posteingang oder versuchen Sie es in ${wait(seconds, 'seconds')} erneut.`,
  invitationsPerRecipient: (count, amount = '', unit = '') =>
    `Diese Adresse hat in den letzten 24 Stunden ${count} Einladungen erhalten. Bitte versuchen Sie es in ${wait(amount, unit)} erneut.`,
  attemptsExhausted: (maxAttempts) =>
    `Diese Person hat alle ${maxAttempts} Versuche der Identitätsprüfung aufgebraucht.`,
  consentDocumentChanged: (currentVersion) =>
    `Der Einwilligungstext hat sich geändert (aktuelle Version: ${currentVersion}). Laden Sie die Seite neu, lesen Sie den aktuellen Text und stimmen Sie erneut zu.`,
  mustAgreeTo: (statement) => `Bitte stimmen Sie zu: ${statement}`,
};

let germanByEnglish: Map<string, string> | undefined;

/** The German of a message written as a literal (the dictionaries above, by its English), built once. */
function germanLiteral(english: string): string | undefined {
  if (!germanByEnglish) {
    const byEnglish = new Map<string, string>(Object.entries(germanLiterals));
    const byName = (englishOf: Record<string, string>, germanOf: Record<string, string>) => {
      for (const [name, text] of Object.entries(englishOf)) {
        const german = germanOf[name];
        if (german !== undefined) byEnglish.set(text, german);
      }
    };
    byName(problemDetails, germanProblemDetails);
    byName(errorMessages, germanErrorMessages);
    byName(fieldMessages, germanFieldMessages);
    germanByEnglish = byEnglish;
  }
  return germanByEnglish.get(english);
}

/** A template's English cut at its values: the texts before, between and after them, and which value each gap is. */
interface TemplateShape {
  texts: string[];
  order: number[];
}

let shapes: Array<[MessageTemplateName, TemplateShape]> | undefined;

/** Each template's shape, from its English written with marks for its values (once, on first use). */
function templateShapes(): Array<[MessageTemplateName, TemplateShape]> {
  if (shapes) return shapes;
  const mark = (index: number) => `\u0000${index}\u0000`;
  shapes = (Object.keys(messageTemplates) as MessageTemplateName[]).map((name) => {
    const english = messageTemplates[name] as (...values: string[]) => string;
    const marked = english(mark(0), mark(1), mark(2), mark(3));
    const parts = marked.split('\u0000');
    // [text, index, text, index, ..., text]
    const texts = parts.filter((_, index) => index % 2 === 0);
    const order = parts.filter((_, index) => index % 2 === 1).map(Number);
    return [name, { texts, order }];
  });
  return shapes;
}

/** The values of an English message written by a template of this shape, or undefined when it is not. */
function valuesOf(message: string, { texts, order }: TemplateShape): string[] | undefined {
  const [first = '', ...rest] = texts;
  if (!message.startsWith(first)) return undefined;
  let position = first.length;
  const values: string[] = [];
  for (const [gap, text] of rest.entries()) {
    const last = gap === rest.length - 1;
    let end: number;
    if (last) {
      end = text === '' ? message.length : message.length - text.length;
      if (end < position || !message.endsWith(text)) return undefined;
    } else {
      // A value is followed by text (the templates are written so): it ends where that text starts.
      if (text === '') return undefined;
      end = message.indexOf(text, position);
      if (end < 0) return undefined;
    }
    const value = message.slice(position, end);
    if (value === '') return undefined;
    values[order[gap] ?? gap] = value;
    position = end + text.length;
  }
  return values;
}

function fromTemplate(english: string): string | undefined {
  for (const [name, shape] of templateShapes()) {
    const values = valuesOf(english, shape);
    if (values) return germanTemplates[name](...values);
  }
  return undefined;
}

/** Whether `english` (a literal message or one a template wrote) has a German twin. */
export function hasGermanMessage(english: string): boolean {
  return germanLiteral(english) !== undefined || fromTemplate(english) !== undefined;
}

/** The German of an English message; the English itself when there is none (never throws). */
export function germanMessage(english: string): string {
  try {
    return germanLiteral(english) ?? fromTemplate(english) ?? english;
  } catch {
    return english;
  }
}

/** A message in `locale`: English as written, German from the dictionary (English when it has none). */
export function localizeMessage(message: string, locale: ApiLocale): string {
  return locale === 'de' ? germanMessage(message) : message;
}
