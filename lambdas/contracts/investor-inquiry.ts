import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';

// POST /api/investor-inquiries (DESIGN section 3). The organization is required: the web form asks
// for it, and an investor inquiry without one cannot be routed to the right person.

export const investorInquiryMessages = {
  nameRequired: 'Please enter your name',
  nameShort: 'Name must have at least 2 characters',
  organization: 'Please enter your organization',
  messageLong: 'Message must be at most 5000 characters',
} as const;

export const investorInquiryRequest = z.strictObject({
  name: z
    .string(investorInquiryMessages.nameRequired)
    .check(
      z.trim(),
      z.minLength(1, investorInquiryMessages.nameRequired),
      z.minLength(2, investorInquiryMessages.nameShort),
      z.maxLength(200, 'Name must be at most 200 characters'),
    ),
  email: businessEmail,
  organization: z
    .string(investorInquiryMessages.organization)
    .check(
      z.trim(),
      z.minLength(1, investorInquiryMessages.organization),
      z.maxLength(200, 'Organization must be at most 200 characters'),
    ),
  message: z
    .string('Please enter a message')
    .check(z.trim(), z.maxLength(5000, investorInquiryMessages.messageLong)),
});
export type InvestorInquiryRequest = z.infer<typeof investorInquiryRequest>;
