import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { messageFieldMessages, messageText, organizationName, personName } from './message-fields.ts';

// POST /api/investor-inquiries (DESIGN section 3). The organization is required: the web form asks
// for it, and an investor inquiry without one cannot be routed to the right person.

export const investorInquiryMessages = messageFieldMessages;

export const investorInquiryRequest = z.strictObject({
  name: personName,
  email: businessEmail,
  organization: organizationName,
  message: messageText(undefined),
});
export type InvestorInquiryRequest = z.infer<typeof investorInquiryRequest>;
