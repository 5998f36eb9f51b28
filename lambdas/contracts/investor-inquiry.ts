import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { successResponse } from './common.ts';
import { messageFieldMessages, messageText, optionalOrganizationName, personName } from './message-fields.ts';
import { route } from './route.ts';

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

export const createInvestorInquiryRoute = route('CreateInvestorInquiry', {
  auth: 'public',
  body: investorInquiryRequest,
  response: successResponse,
  successStatus: 201,
  problems: [],
});
