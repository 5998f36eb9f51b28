import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { messageFieldMessages, messageText, optionalOrganizationName, personName } from './message-fields.ts';

// POST /api/investor-inquiries (docs/design.md section 3). Name and email are required (issue 5); the
// organization and the message are optional: an individual investor may have no organization.

export const investorInquiryMessages = messageFieldMessages;

export const investorInquiryRequest = z.strictObject({
  name: personName,
  email: businessEmail,
  organization: optionalOrganizationName,
  message: messageText(undefined),
});
export type InvestorInquiryRequest = z.infer<typeof investorInquiryRequest>;
