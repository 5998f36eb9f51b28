import { useId, useState } from 'react';
import { invitationRequest, type OrganizationInvitation } from '#contracts/organization-team.ts';
import { Field, SelectField } from '#web/components/field.tsx';
import { useToast } from '#web/components/toast.tsx';
import { roleOptions, teamCopy } from '#web/content/organization-team.ts';
import { inviteColleague } from '#web/features/organization/api/team.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';
import { useContractForm } from '#web/lib/use-contract-form.ts';

const copy = teamCopy.invite;

/** The API's own words for a refusal of the whole form (409 already a member, 429, 403), else ours. */
export function refusal(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail
    ? error.detail
    : teamCopy.failed;
}

// Invite a colleague: their business address and role, checked with the contract the handler
// enforces; the API's field errors (400) show on their fields, any other refusal above the button.
export function InviteForm({
  organizationId,
  onInvited,
}: {
  organizationId: string;
  onInvited: (invitation: OrganizationInvitation) => void;
}) {
  const { api } = useSession();
  const toast = useToast();
  const headingId = useId();
  const errorId = useId();
  const [formError, setFormError] = useState<string>();
  const form = useContractForm({
    fields: { email: '', role: 'org_member' },
    schema: invitationRequest,
    submit: (body) => {
      setFormError(undefined);
      return inviteColleague(api, organizationId, body);
    },
    onSuccess: (invitation) => {
      toast.success(copy.sent(invitation.email));
      onInvited(invitation);
    },
    onFailure: (error) => setFormError(refusal(error)),
    onInvalid: () => setFormError(undefined),
  });

  return (
    <section aria-labelledby={headingId} className="team-section">
      <h2 id={headingId}>{copy.heading}</h2>
      <p className="team-section__intro">{copy.intro}</p>
      <form
        className="form team-invite"
        noValidate
        aria-busy={form.submitting}
        aria-describedby={formError ? errorId : undefined}
        onSubmit={form.onSubmit}
      >
        <Field
          label={copy.email}
          hint={copy.emailHint}
          type="email"
          autoComplete="off"
          required
          {...form.control('email')}
        />
        <SelectField
          label={copy.role}
          placeholder={copy.rolePlaceholder}
          options={roleOptions}
          required
          {...form.control('role')}
        />
        {formError && (
          <p id={errorId} role="alert" className="form-status form-status--failure">
            {formError}
          </p>
        )}
        <div className="app-actions">
          <button type="submit" className="button" disabled={!form.hydrated || form.submitting}>
            {form.submitting ? copy.submitting : copy.submit}
          </button>
        </div>
      </form>
    </section>
  );
}
