import * as z from 'zod/mini';

export const kycStatuses = ['not_started', 'pending', 'approved', 'rejected'] as const;
export const kycStatus = z.enum(kycStatuses);
export type KycStatus = z.infer<typeof kycStatus>;

export const roles = ['user', 'admin'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;
