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

/**
 * A user id as the identity provider spells it (the token's `sub`, `auth0|...`). Auth0's are far
 * shorter; the bound keeps any id a request names inside a DynamoDB key (2,048 bytes).
 */
export const userId = z.string().check(z.minLength(1), z.maxLength(256));

export const successResponse = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof successResponse>;
