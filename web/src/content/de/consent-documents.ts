// The German consent documents: what the German build's consent dialog shows and sends the version
// and language of (ADR 0089).
export { germanConsentDocuments as shownConsentDocuments } from '#contracts/consent-documents.ts';
