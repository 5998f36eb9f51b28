import type { Role } from '#contracts/kyc.ts';
import type { UserDirectory } from '../ports.ts';
import type { AdminAuditEntry, AdminAuditLog } from './trail.ts';

// An operator makes someone an admin or takes the role away (`npm run admin:role`, ADR 0078):
// the role is the user's `app_metadata.role` in Auth0, which the post-login Action copies into the
// role claim. No role change without its entry in the admin trail, in this order:
//
// 1. the trail is read (its head) before anything changes: a wrong table or a missing permission
//    stops the command while nothing has happened;
// 2. the role is PATCHed in Auth0 (Auth0 merges top-level keys: the other keys stay);
// 3. the entry is appended;
// 4. if the append fails, the old role is put back, so the person does not keep a role the trail
//    does not show. Appending first instead would leave an entry for a change that may never
//    happen, which an append-only trail cannot take back.

/** `user` when Auth0 holds no role (or one the product does not know): what the role claim says then. */
export const effectiveRole = (role: Role | undefined): Role => role ?? 'user';

export interface ChangeRoleRequest {
  userId: string;
  role: Role;
  /** Why, in the operator's words (3 to 1000 characters once trimmed: `parseRoleReason`). */
  reason: string;
}

export interface ChangeRoleDeps {
  users: Pick<UserDirectory, 'get' | 'updateAppMetadata'>;
  trail: Pick<AdminAuditLog, 'head' | 'append'>;
  /** Who runs it: the AWS principal's ARN, or `local:<user>` on the local stack. */
  operatorId: string;
}

export type ChangeRoleResult =
  | { kind: 'unchanged'; userId: string; role: Role }
  | { kind: 'changed'; userId: string; from: Role; to: Role; entry: AdminAuditEntry };

export class UnknownUserError extends Error {
  constructor(readonly userId: string) {
    super(`No user ${userId} in Auth0; nothing was changed.`);
    this.name = 'UnknownUserError';
  }
}

/**
 * The PATCH failed and nothing was appended. `confirmed`: a second read shows the old role (nothing
 * changed); otherwise that read failed too, and the operator must look before running it again.
 */
export class RoleNotChangedError extends Error {
  constructor(
    readonly userId: string,
    readonly confirmed: boolean,
    options: { cause: unknown },
  ) {
    super(
      confirmed
        ? `Auth0 did not change the role of ${userId}; it is unchanged and nothing was appended. Cause: ${messageOf(options.cause)}`
        : `Auth0 did not answer the role change of ${userId}, and the user could not be read again: nothing was appended, and the change may or may not have been applied. Check app_metadata.role in the Auth0 dashboard; if it shows the new role, put the old one back there, then run the command again. Cause: ${messageOf(options.cause)}`,
      options,
    );
    this.name = 'RoleNotChangedError';
  }
}

/**
 * The role was changed but its entry could not be appended. `restored`: the old role was put back
 * (nothing changed in the end); otherwise the person holds the new role without an entry, and the
 * operator must put the old one back by hand.
 */
export class RoleChangeNotRecordedError extends Error {
  constructor(
    readonly userId: string,
    readonly from: Role,
    readonly to: Role,
    readonly restored: boolean,
    options: { cause: unknown },
  ) {
    super(
      restored
        ? `The role of ${userId} was changed to ${to}, but its entry could not be appended to the admin audit trail, so the role was put back to ${from}: nothing changed. Cause: ${messageOf(options.cause)}`
        : `The role of ${userId} was changed to ${to}, its entry could not be appended to the admin audit trail, AND putting ${from} back failed: ${userId} is ${to} with no entry. Set app_metadata.role back to "${from}" in the Auth0 dashboard (User Management > Users > the user > Metadata) now, then run the command again. Cause: ${messageOf(options.cause)}`,
      options,
    );
    this.name = 'RoleChangeNotRecordedError';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function changeRole(deps: ChangeRoleDeps) {
  return async (request: ChangeRoleRequest): Promise<ChangeRoleResult> => {
    const { userId, role: to } = request;
    const user = await deps.users.get(userId);
    if (!user) throw new UnknownUserError(userId);
    const stored = user.appMetadata.role;
    const from = effectiveRole(stored);
    if (from === to) return { kind: 'unchanged', userId, role: to };

    // Fails (a wrong table, no permission) before anything changes.
    await deps.trail.head();

    try {
      await deps.users.updateAppMetadata(userId, { role: to });
    } catch (error) {
      // A PATCH that timed out may have been applied all the same: look before saying so.
      const now = await deps.users.get(userId).then(
        (found) => (found ? effectiveRole(found.appMetadata.role) : undefined),
        () => undefined,
      );
      if (now !== to) throw new RoleNotChangedError(userId, now !== undefined, { cause: error });
    }

    try {
      const entry = await deps.trail.append({
        actorType: 'operator',
        actorId: deps.operatorId,
        action: 'role_changed',
        targetType: 'user',
        targetId: userId,
        reasonCode: null,
        reason: request.reason,
        details: { from, to },
        requestId: null,
      });
      return { kind: 'changed', userId, from, to, entry };
    } catch (appendError) {
      // No role change without its entry: put back exactly what was there (no key: delete it).
      let restored = true;
      try {
        await deps.users.updateAppMetadata(userId, { role: stored ?? null });
      } catch {
        restored = false;
      }
      throw new RoleChangeNotRecordedError(userId, from, to, restored, { cause: appendError });
    }
  };
}

/** The operator's reason: trimmed, 3 to 1000 characters; undefined when it is not. */
export function parseRoleReason(raw: string | undefined): string | undefined {
  const reason = raw?.trim();
  return reason !== undefined && reason.length >= 3 && reason.length <= 1000 ? reason : undefined;
}
