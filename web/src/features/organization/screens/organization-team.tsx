import { useEffect, useId, useRef, useState } from 'react';
import type { OrganizationRole } from '#contracts/organization.ts';
import type { OrganizationInvitation, OrganizationMember } from '#contracts/organization-team.ts';
import { AppTitle } from '#web/components/app-title.tsx';
import { ScreenHeading } from '#web/components/screen-heading.tsx';
import { useToast } from '#web/components/toast.tsx';
import { verificationStatusNames } from '#web/content/account.ts';
import { teamCopy as copy, roleNames, roleOptions } from '#web/content/organization-team.ts';
import {
  changeMemberRole,
  listTeam,
  removeMember,
  resendInvitation,
  revokeInvitation,
} from '#web/features/organization/api/team.ts';
import { type Confirmation, ConfirmDialog } from '#web/features/organization/components/confirm-dialog.tsx';
import { InviteForm, refusal } from '#web/features/organization/components/invite-form.tsx';
import { formatDateTime, formatDay } from '#web/lib/dates.ts';
import { useSession } from '#web/lib/session.ts';
import { useResource } from '#web/lib/use-resource.ts';
import '#web/styles/organization.css';

// `/organization`: the team page of an organization's approved admin (routeAccess shows others the
// 403 page, ADR 0084). Its members and pending invitations, from one call; every change reloads
// them. While a request runs the rows' actions are disabled (its own button says what runs);
// revoking and removing ask first, in a modal dialog, and focus comes back to the button that
// opened it (or to the list's heading, when its row is gone).

/** The request in flight: which action, on which row. */
type Busy = `${'resend' | 'revoke' | 'role' | 'remove'}:${string}`;

export function Component() {
  const { api, me } = useSession();
  const toast = useToast();
  // routeAccess renders this page only for an organization's admin, who has an organization.
  const organizationId = me.organizationId ?? '';
  const team = useResource(`team:${organizationId}`, (signal) => listTeam(api, organizationId, signal));
  const [busy, setBusy] = useState<Busy | null>(null);
  const [dialog, setDialog] = useState<{ confirmation: Confirmation; opener: HTMLElement | null } | null>(
    null,
  );
  const [roleDrafts, setRoleDrafts] = useState<Record<string, OrganizationRole>>({});
  const membersHeading = useRef<HTMLHeadingElement>(null);
  const invitationsHeading = useRef<HTMLHeadingElement>(null);
  const roleSelects = useRef(new Map<string, HTMLSelectElement>());
  const membersId = useId();
  const invitationsId = useId();

  // Focus moves once the render that follows a change is on screen (the dialog closed, the rows reloaded).
  const pendingFocus = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target || dialog) return;
    pendingFocus.current = null;
    target()?.focus();
  });

  /** Runs one change; on success says so and reloads the team. True when it succeeded. */
  async function change(key: Busy, action: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(key);
    try {
      await action();
      toast.success(done);
      await team.reload();
      return true;
    } catch (error) {
      toast.error(refusal(error));
      return false;
    } finally {
      setBusy(null);
    }
  }

  function ask(
    event: { currentTarget: HTMLElement },
    confirmation: Omit<Confirmation, 'run'>,
    key: Busy,
    action: () => Promise<unknown>,
    done: string,
    heading: () => HTMLElement | null,
  ) {
    const opener = event.currentTarget;
    setDialog({
      opener,
      confirmation: {
        ...confirmation,
        run: async () => {
          const ok = await change(key, action, done);
          pendingFocus.current = ok ? heading : () => opener;
          setDialog(null);
        },
      },
    });
  }

  function closeDialog() {
    const opener = dialog?.opener;
    pendingFocus.current = () => opener;
    setDialog(null);
  }

  const organizationName = me.organizationName ?? copy.yourOrganization;
  const data = team.data;

  return (
    <section className="container app-screen team">
      <AppTitle title={copy.title} />
      <ScreenHeading>{copy.title}</ScreenHeading>
      <p className="team-section__intro">{copy.intro(organizationName)}</p>

      {team.state === 'loading' && (
        <p role="status" className="team-status">
          {copy.loading}
        </p>
      )}
      {team.state === 'failed' && (
        <div role="alert" className="team-status">
          <p>{copy.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => team.reload()}>
            {copy.retry}
          </button>
        </div>
      )}

      {data && (
        <>
          <div className="team-section">
            <h2 id={membersId} ref={membersHeading} tabIndex={-1}>
              {copy.members.heading}
            </h2>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
            <section className="team-table-scroll" aria-labelledby={membersId} tabIndex={0}>
              <table className="team-table">
                <caption className="visually-hidden">{copy.members.caption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{copy.members.email}</th>
                    <th scope="col">{copy.members.role}</th>
                    <th scope="col">{copy.members.emailVerified}</th>
                    <th scope="col">{copy.members.kycStatus}</th>
                    <th scope="col">{copy.members.joined}</th>
                    <th scope="col">{copy.members.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.members.map((member) => (
                    <MemberRow
                      key={member.userId}
                      member={member}
                      you={member.userId === me.userId}
                      draft={roleDrafts[member.userId] ?? member.role}
                      busy={busy}
                      selectRef={(element) => {
                        if (element) roleSelects.current.set(member.userId, element);
                        else roleSelects.current.delete(member.userId);
                      }}
                      onDraft={(role) => setRoleDrafts((current) => ({ ...current, [member.userId]: role }))}
                      onSave={async () => {
                        const role = roleDrafts[member.userId] ?? member.role;
                        const ok = await change(
                          `role:${member.userId}`,
                          () => changeMemberRole(api, organizationId, member.userId, { role }),
                          copy.members.roleSaved(member.email),
                        );
                        if (ok) setRoleDrafts(({ [member.userId]: _, ...rest }) => rest);
                        pendingFocus.current = () => roleSelects.current.get(member.userId);
                      }}
                      onRemove={(event) =>
                        ask(
                          event,
                          {
                            title: copy.confirm.removeTitle,
                            body: copy.confirm.removeBody(member.email),
                            confirm: copy.confirm.removeConfirm,
                          },
                          `remove:${member.userId}`,
                          () => removeMember(api, organizationId, member.userId),
                          copy.confirm.removed(member.email),
                          () => membersHeading.current,
                        )
                      }
                    />
                  ))}
                </tbody>
              </table>
            </section>
          </div>

          <div className="team-section">
            <h2 id={invitationsId} ref={invitationsHeading} tabIndex={-1}>
              {copy.invitations.heading}
            </h2>
            {data.invitations.length === 0 ? (
              <p className="team-status">{copy.invitations.none}</p>
            ) : (
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
              <section className="team-table-scroll" aria-labelledby={invitationsId} tabIndex={0}>
                <table className="team-table">
                  <caption className="visually-hidden">{copy.invitations.caption}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{copy.invitations.email}</th>
                      <th scope="col">{copy.invitations.role}</th>
                      <th scope="col">{copy.invitations.invited}</th>
                      <th scope="col">{copy.invitations.expires}</th>
                      <th scope="col">{copy.invitations.actions}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.invitations.map((invitation) => (
                      <InvitationRow
                        key={invitation.invitationId}
                        invitation={invitation}
                        busy={busy}
                        onResend={async () => {
                          await change(
                            `resend:${invitation.invitationId}`,
                            () => resendInvitation(api, organizationId, invitation.invitationId),
                            copy.invitations.resent(invitation.email),
                          );
                          // The new invitation has a new id: its row replaces this one.
                          pendingFocus.current = () => invitationsHeading.current;
                        }}
                        onRevoke={(event) =>
                          ask(
                            event,
                            {
                              title: copy.confirm.revokeTitle,
                              body: copy.confirm.revokeBody(invitation.email),
                              confirm: copy.confirm.revokeConfirm,
                            },
                            `revoke:${invitation.invitationId}`,
                            () => revokeInvitation(api, organizationId, invitation.invitationId),
                            copy.invitations.revoked(invitation.email),
                            () => invitationsHeading.current,
                          )
                        }
                      />
                    ))}
                  </tbody>
                </table>
              </section>
            )}
          </div>

          <InviteForm organizationId={organizationId} onInvited={() => team.reload()} />
        </>
      )}

      <ConfirmDialog confirmation={dialog?.confirmation ?? null} busy={busy !== null} onClose={closeDialog} />
    </section>
  );
}

function MemberRow(props: {
  member: OrganizationMember;
  you: boolean;
  draft: OrganizationRole;
  busy: Busy | null;
  selectRef: (element: HTMLSelectElement | null) => void;
  onDraft: (role: OrganizationRole) => void;
  onSave: () => void;
  onRemove: (event: { currentTarget: HTMLElement }) => void;
}) {
  const { member, busy } = props;
  const saving = busy === `role:${member.userId}`;
  return (
    <tr>
      <th scope="row" className="team-table__email">
        {member.email}
        {props.you && (
          <>
            {' '}
            <span className="team-you">{copy.members.you}</span>
          </>
        )}
      </th>
      <td>
        {props.you ? (
          roleNames[member.role]
        ) : (
          <select
            ref={props.selectRef}
            className="team-role"
            aria-label={copy.members.roleLabel(member.email)}
            value={props.draft}
            disabled={saving}
            onChange={(event) => props.onDraft(event.target.value as OrganizationRole)}
          >
            {roleOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </td>
      <td>{member.emailVerified ? copy.members.yes : copy.members.no}</td>
      <td>
        <span className={`status-badge status-badge--${member.kycStatus}`}>
          {verificationStatusNames[member.kycStatus]}
        </span>
      </td>
      <td>
        <time dateTime={member.joinedAt}>{formatDay(member.joinedAt)}</time>
      </td>
      <td>
        {!props.you && (
          <div className="team-actions">
            <button
              type="button"
              className="button button--secondary"
              aria-label={copy.members.saveRoleLabel(member.email)}
              disabled={busy !== null || props.draft === member.role}
              onClick={props.onSave}
            >
              {saving ? copy.members.savingRole : copy.members.saveRole}
            </button>
            <button
              type="button"
              className="button button--secondary"
              aria-label={copy.members.removeLabel(member.email)}
              aria-haspopup="dialog"
              disabled={busy !== null}
              onClick={props.onRemove}
            >
              {copy.members.remove}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

function InvitationRow(props: {
  invitation: OrganizationInvitation;
  busy: Busy | null;
  onResend: () => void;
  onRevoke: (event: { currentTarget: HTMLElement }) => void;
}) {
  const { invitation, busy } = props;
  const resending = busy === `resend:${invitation.invitationId}`;
  return (
    <tr>
      <th scope="row" className="team-table__email">
        {invitation.email}
      </th>
      <td>{roleNames[invitation.role]}</td>
      <td>
        <time dateTime={invitation.invitedAt}>{formatDay(invitation.invitedAt)}</time>
      </td>
      <td>
        <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>
        {invitation.expired && (
          <span className="status-badge status-badge--rejected team-expired">{copy.invitations.expired}</span>
        )}
      </td>
      <td>
        <div className="team-actions">
          <button
            type="button"
            className="button button--secondary"
            aria-label={copy.invitations.resendLabel(invitation.email)}
            disabled={busy !== null}
            onClick={props.onResend}
          >
            {resending ? copy.invitations.resending : copy.invitations.resend}
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-label={copy.invitations.revokeLabel(invitation.email)}
            aria-haspopup="dialog"
            disabled={busy !== null}
            onClick={props.onRevoke}
          >
            {copy.invitations.revoke}
          </button>
        </div>
      </td>
    </tr>
  );
}
