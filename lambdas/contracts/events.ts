import * as z from 'zod/mini';
import { kycStatus } from './kyc.ts';
import { organizationType } from './registration.ts';

// The events on the custom bus (DESIGN section 5): detail-type, source and detail schema, once.

export const kycStatusChanged = z.object({
  userId: z.string(),
  status: kycStatus,
  previousStatus: kycStatus,
  inquiryId: z.nullable(z.string()),
  decidedBy: z.enum(['persona', 'admin']),
  occurredAt: z.string(),
});
export type KycStatusChanged = z.infer<typeof kycStatusChanged>;

export const registrationSubmitted = z.object({
  userId: z.string(),
  organizationName: z.string(),
  organizationType,
  occurredAt: z.string(),
});
export type RegistrationSubmitted = z.infer<typeof registrationSubmitted>;

export const domainEvents = {
  KycStatusChanged: { source: 'platform.kyc', detail: kycStatusChanged },
  RegistrationSubmitted: { source: 'platform.registration', detail: registrationSubmitted },
} as const;

export type DomainEvent =
  | { detailType: 'KycStatusChanged'; detail: KycStatusChanged }
  | { detailType: 'RegistrationSubmitted'; detail: RegistrationSubmitted };
