// Types of what the backend imports from the post-login Action (post-login.cjs).

/** The prefix of every custom claim: the namespace with its trailing slash added when missing. */
export function claimsPrefix(namespace: string): string;

export function onExecutePostLogin(event: unknown, api: unknown): Promise<void>;
