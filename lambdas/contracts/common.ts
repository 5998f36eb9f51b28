import * as z from 'zod/mini';

export const emailMessages = {
  required: 'Please enter your email address',
  invalid: 'Please enter a valid email address',
} as const;

/** A trimmed, syntactically valid email address (any domain). */
export const emailAddress = z
  .string(emailMessages.required)
  .check(
    z.trim(),
    z.minLength(1, emailMessages.required),
    z.maxLength(254, emailMessages.invalid),
    z.email(emailMessages.invalid),
  );

export const successResponse = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof successResponse>;
