import type { RouteKey } from './route-keys.ts';

// The `user` and `admin` routes' route keys (the signed-in app's client calls them with the
// token): apart from ./route-keys.ts so that a signed-in page loads no public route's path.

export const signedInRouteKeys = {
  GetMe: 'GET /api/me',
  SendVerificationEmail: 'POST /api/me/verification-email',
  CreateConsent: 'POST /api/consents',
  ListMyConsents: 'GET /api/me/consents',
  WithdrawConsent: 'POST /api/me/consent-withdrawals',
  StartKycInquiry: 'POST /api/me/kyc/inquiry',
  ListVerifications: 'GET /api/admin/verifications',
  DecideVerification: 'POST /api/admin/verifications/{userId}/decision',
  AllowVerificationAttempt: 'POST /api/admin/verifications/{userId}/new-attempt',
  GetVerificationAuditTrail: 'GET /api/admin/verifications/{userId}/audit-trail',
  GetVerificationEvidence: 'GET /api/admin/verifications/{userId}/evidence',
  CreateOwnDataDeletionRequest: 'POST /api/me/data-deletion-requests',
  ExportMyData: 'GET /api/me/export',
  CancelOwnDataDeletionRequest: 'DELETE /api/me/data-deletion-requests/{requestId}',
  GetOrganization: 'GET /api/organizations/{organizationId}',
  ListOrganizationTeam: 'GET /api/organizations/{organizationId}/team',
  CreateOrganizationInvitation: 'POST /api/organizations/{organizationId}/invitations',
  ResendOrganizationInvitation: 'POST /api/organizations/{organizationId}/invitations/{invitationId}/resend',
  RevokeOrganizationInvitation: 'DELETE /api/organizations/{organizationId}/invitations/{invitationId}',
  ChangeOrganizationMemberRole: 'PUT /api/organizations/{organizationId}/members/{userId}/role',
  RemoveOrganizationMember: 'DELETE /api/organizations/{organizationId}/members/{userId}',
  JoinOrganization: 'POST /api/organizations/{organizationId}/membership',
  CreateServiceRequest: 'POST /api/organizations/{organizationId}/service-requests',
  ListServiceRequests: 'GET /api/organizations/{organizationId}/service-requests',
} as const satisfies Record<string, RouteKey>;
