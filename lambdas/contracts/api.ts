import * as z from 'zod/mini';
import {
  listVerificationsQuery,
  listVerificationsResponse,
  newAttemptRequest,
  newAttemptResponse,
  verificationDecisionRequest,
  verificationDecisionResponse,
} from './admin-verifications.ts';
import { successResponse } from './common.ts';
import { consentCreated, consentHistory, consentRequest } from './consent.ts';
import { contactRequest } from './contact.ts';
import { cookieConsentRequest } from './cookie-consent.ts';
import {
  dataDeletionAccepted,
  dataDeletionConfirmation,
  dataDeletionPending,
  dataDeletionRequest,
  ownDataDeletionRequest,
} from './data-deletion.ts';
import { healthResponse } from './health.ts';
import { investorInquiryRequest } from './investor-inquiry.ts';
import { startKycInquiryResponse } from './kyc-inquiry.ts';
import { meResponse, verificationEmailResponse } from './me.ts';
import { personaWebhookEvent, personaWebhookResponse } from './persona-webhook.ts';
import { registrationRequest } from './registration.ts';
import { waitlistRequest } from './waitlist.ts';

// Which contract belongs to which route of lambdas/routes.ts: the OpenAPI document is generated
// from this map (lambdas/http/openapi.ts), and a test keeps it in step with the route table.

export const routeIds = [
  'GetHealth',
  'CreateRegistration',
  'GetMe',
  'SendVerificationEmail',
  'CreateConsent',
  'ListMyConsents',
  'StartKycInquiry',
  'ReceivePersonaWebhook',
  'ListVerifications',
  'DecideVerification',
  'AllowVerificationAttempt',
  'CreateWaitlistEntry',
  'CreateInvestorInquiry',
  'CreateContactMessage',
  'CreateDataDeletionRequest',
  'ConfirmDataDeletionRequest',
  'CreateOwnDataDeletionRequest',
  'CreateCookieConsent',
  'GetOpenApi',
] as const;
export type RouteId = (typeof routeIds)[number];

export interface ApiContract {
  /** The JSON body's schema, for routes that take one. */
  request?: z.ZodMiniType;
  /** The query string's schema (an object of optional strings/enums). */
  query?: z.ZodMiniType;
  /** The success body's schema. */
  response: z.ZodMiniType;
  successStatus: number;
}

/** The OpenAPI document itself, loosely: enough to say what GET /api/openapi.json returns. */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export const apiContracts: Record<RouteId, ApiContract> = {
  GetHealth: { response: healthResponse, successStatus: 200 },
  CreateRegistration: { request: registrationRequest, response: successResponse, successStatus: 201 },
  GetMe: { response: meResponse, successStatus: 200 },
  // 202 when an email is sent; 200 with `alreadyVerified` when there is nothing to do.
  SendVerificationEmail: { response: verificationEmailResponse, successStatus: 202 },
  CreateConsent: { request: consentRequest, response: consentCreated, successStatus: 201 },
  ListMyConsents: { response: consentHistory, successStatus: 200 },
  StartKycInquiry: { response: startKycInquiryResponse, successStatus: 200 },
  ReceivePersonaWebhook: {
    request: personaWebhookEvent,
    response: personaWebhookResponse,
    successStatus: 200,
  },
  ListVerifications: {
    query: listVerificationsQuery,
    response: listVerificationsResponse,
    successStatus: 200,
  },
  DecideVerification: {
    request: verificationDecisionRequest,
    response: verificationDecisionResponse,
    successStatus: 200,
  },
  AllowVerificationAttempt: { request: newAttemptRequest, response: newAttemptResponse, successStatus: 200 },
  CreateWaitlistEntry: { request: waitlistRequest, response: successResponse, successStatus: 201 },
  CreateInvestorInquiry: { request: investorInquiryRequest, response: successResponse, successStatus: 201 },
  CreateContactMessage: { request: contactRequest, response: successResponse, successStatus: 201 },
  // 202: the request waits for the owner's confirmation (the emailed link).
  CreateDataDeletionRequest: {
    request: dataDeletionRequest,
    response: dataDeletionPending,
    successStatus: 202,
  },
  ConfirmDataDeletionRequest: {
    request: dataDeletionConfirmation,
    response: dataDeletionAccepted,
    successStatus: 200,
  },
  CreateOwnDataDeletionRequest: {
    request: ownDataDeletionRequest,
    response: dataDeletionAccepted,
    successStatus: 202,
  },
  CreateCookieConsent: { request: cookieConsentRequest, response: successResponse, successStatus: 201 },
  GetOpenApi: { response: openApiDocument, successStatus: 200 },
};
