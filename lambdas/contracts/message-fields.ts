import * as z from 'zod/mini';

// The fields a visitor fills in on the contact and investor forms, with the product's messages.

export const messageFieldMessages = {
  nameRequired: 'Please enter your name',
  nameShort: 'Name must have at least 2 characters',
  organization: 'Please enter your organization',
  messageLong: 'Message must be at most 5000 characters',
  nameLong: 'Name must be at most 200 characters',
  organizationLong: 'Organization must be at most 200 characters',
  messageRequired: 'Please enter a message',
} as const;

export const personName = z
  .string(messageFieldMessages.nameRequired)
  .check(
    z.trim(),
    z.minLength(1, messageFieldMessages.nameRequired),
    z.minLength(2, messageFieldMessages.nameShort),
    z.maxLength(200, messageFieldMessages.nameLong),
  );

export const organizationName = z
  .string(messageFieldMessages.organization)
  .check(
    z.trim(),
    z.minLength(1, messageFieldMessages.organization),
    z.maxLength(200, messageFieldMessages.organizationLong),
  );

/** The organization where a form does not require it: empty or absent is fine, trimmed, bounded. */
export const optionalOrganizationName = z.optional(
  z.string().check(z.trim(), z.maxLength(200, messageFieldMessages.organizationLong)),
);

/** A free-text message of at most 5000 characters, with an optional minimum length. */
export const messageText = (required: { minLength: number; message: string } | undefined) =>
  z
    .string(required?.message ?? messageFieldMessages.messageRequired)
    .check(
      z.trim(),
      ...(required ? [z.minLength(required.minLength, required.message)] : []),
      z.maxLength(5000, messageFieldMessages.messageLong),
    );
