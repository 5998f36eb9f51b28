import { type StartKycInquiryResponse, startKycInquiryResponse } from '#contracts/kyc-inquiry.ts';
import { problemUri } from '#contracts/problem.ts';
import { type ApiClient, ApiError } from '#web/lib/api-client.ts';

// The identity-verification calls (the consent call is in web/src/lib/consent-api.ts). `user` routes: the
// shell's client sends the token, and the server takes the user from it (never a `user_id` in the
// body, never a reference id).

/** Creates or resumes the caller's Persona inquiry; no `sessionToken` means it is already submitted. */
export function startInquiry(api: ApiClient, signal?: AbortSignal): Promise<StartKycInquiryResponse> {
  return api.call('StartKycInquiry', { response: startKycInquiryResponse, signal });
}

/** The API refused because the caller's email address is not verified (403). */
export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof ApiError && error.is(problemUri('email-not-verified'));
}

/** The API answered with a refusal (4xx/5xx), as opposed to no answer or an unreadable one. */
export function isApiRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status >= 400;
}

/** A 401 ends the session in the shell (it toasts and signs out): a screen says nothing more. */
export function isSessionEnd(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
