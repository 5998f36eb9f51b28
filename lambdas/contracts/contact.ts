import * as z from 'zod/mini';
import { businessEmail } from './business-email.ts';
import { successResponse } from './common.ts';
import { messageFieldMessages, messageText, organizationName, personName } from './message-fields.ts';
import { route } from './route.ts';

// POST /api/contact (docs/design.md section 3): business email only, with the product's messages.

export const contactMessages = {
  ...messageFieldMessages,
  message: 'Please enter a message of at least 10 characters',
} as const;

export const contactRequest = z.strictObject({
  name: personName,
  email: businessEmail,
  organization: organizationName,
  message: messageText({ minLength: 10, message: contactMessages.message }),
});
export type ContactRequest = z.infer<typeof contactRequest>;

export const createContactMessageRoute = route('CreateContactMessage', {
  auth: 'public',
  body: contactRequest,
  response: successResponse,
  successStatus: 201,
  problems: [],
});
