import type { Mailer } from '#lambdas/domain/ports.ts';
import { invitationEmail, passwordResetEmail, verificationEmail } from './emails.ts';
import type { Invitation } from './organization-store.ts';
import type { StoredUser, UserStore } from './user-store.ts';

const FIVE_DAYS = 5 * 24 * 3600;

/** Verification and password-change tickets (single use, with expiry) and the emails that carry them. */
export class TicketService {
  constructor(
    private readonly issuer: string,
    private readonly users: UserStore,
    private readonly mailer: Mailer,
  ) {}

  verificationUrl(user: StoredUser, clientId?: string): string {
    const ticket = this.users.createTicket({
      kind: 'email_verification',
      user_id: user.user_id,
      expires_at: Date.now() + FIVE_DAYS * 1000,
      ...(clientId ? { client_id: clientId } : {}),
    });
    return `${this.issuer}u/email-verification?ticket=${ticket.id}#`;
  }

  async sendVerificationEmail(user: StoredUser, clientId?: string): Promise<void> {
    await this.mailer.send(verificationEmail(user.email, this.verificationUrl(user, clientId)));
  }

  passwordChangeUrl(
    user: StoredUser,
    options: {
      resultUrl?: string | undefined;
      ttlSec?: number | undefined;
      markEmailAsVerified?: boolean | undefined;
      includeEmailInRedirect?: boolean | undefined;
      clientId?: string | undefined;
    } = {},
  ): string {
    const ttl = options.ttlSec && options.ttlSec > 0 ? options.ttlSec : FIVE_DAYS;
    const ticket = this.users.createTicket({
      kind: 'password_change',
      user_id: user.user_id,
      expires_at: Date.now() + ttl * 1000,
      ...(options.resultUrl ? { result_url: options.resultUrl } : {}),
      mark_email_as_verified: options.markEmailAsVerified ?? false,
      include_email_in_redirect: options.includeEmailInRedirect ?? false,
      ...(options.clientId ? { client_id: options.clientId } : {}),
    });
    return `${this.issuer}lo/reset?ticket=${ticket.id}#`;
  }

  /** Auth0's `/dbconnections/change_password`: emails a reset link if the user exists, silently otherwise. */
  async requestPasswordReset(email: string, clientId?: string): Promise<void> {
    const user = this.users.findByEmail(email);
    if (!user || user.blocked) return;
    const link = this.passwordChangeUrl(user, { clientId, ttlSec: 24 * 3600 });
    await this.mailer.send(passwordResetEmail(user.email, link));
  }

  /** An organization invitation's email (`send_invitation_email`), sent like Auth0's own emails. */
  async sendInvitationEmail(invitation: Invitation, organization: string): Promise<void> {
    await this.mailer.send(
      invitationEmail(invitation.invitee.email, {
        inviter: invitation.inviter.name,
        organization,
        link: invitation.invitation_url,
      }),
    );
  }
}
