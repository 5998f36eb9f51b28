import * as z from 'zod/mini';

// RFC 9457 problem details, the only error shape the API returns.
export const fieldError = z.object({
  field: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldError>;

export const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.optional(z.string()),
  errors: z.optional(z.array(fieldError)),
});
export type Problem = z.infer<typeof problem>;

export const problemContentType = 'application/problem+json';
