// The consent documents a reader is shown, in the build's language (ADR 0089): the exact texts
// whose version, language and SHA-256 the ledger records (#contracts/consent-documents.ts). The
// German build shows the German documents (./de/consent-documents.ts).
export { consentDocuments as shownConsentDocuments } from '#contracts/consent-documents.ts';
