import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';

// POST /api/contact (DESIGN section 3): business email only, with the product's messages.

export const contactMessages = {
  nameRequired: 'Please enter your name',
  nameShort: 'Name must have at least 2 characters',
  organization: 'Please enter your organization',
  message: 'Please enter a message of at least 10 characters',
  messageLong: 'Message must be at most 5000 characters',
} as const;

export const contactRequest = z.strictObject({
  name: z
    .string(contactMessages.nameRequired)
    .check(
      z.trim(),
      z.minLength(1, contactMessages.nameRequired),
      z.minLength(2, contactMessages.nameShort),
      z.maxLength(200, 'Name must be at most 200 characters'),
    ),
  email: businessEmail,
  organization: z
    .string(contactMessages.organization)
    .check(
      z.trim(),
      z.minLength(1, contactMessages.organization),
      z.maxLength(200, 'Organization must be at most 200 characters'),
    ),
  message: z
    .string(contactMessages.message)
    .check(
      z.trim(),
      z.minLength(10, contactMessages.message),
      z.maxLength(5000, contactMessages.messageLong),
    ),
});
export type ContactRequest = z.infer<typeof contactRequest>;
