import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionDetails, Provider } from 'oidc-provider';
import { type ActionClaims, completedFactors, passwordJustGiven } from './action-claims.ts';
import { BodyError, escapeHtml, readBody, redirect, sendHtml, sendText } from './http-util.ts';
import type { Invitation, Organization, OrganizationStore } from './organization-store.ts';
import type { TicketService } from './tickets.ts';
import { DATABASE_CONNECTION, hashPassword, type StoredUser, type UserStore } from './user-store.ts';

export const RESET_SENT_MESSAGE = "We've just sent you an email to reset your password.";
const MIN_PASSWORD_LENGTH = 8;

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1a1a1a;margin:0}
main{max-width:24rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.15)}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #888;border-radius:4px}
button{margin-top:1.25rem;width:100%;padding:.7rem;font-size:1rem;background:#1f4fd1;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus,input:focus,a:focus{outline:3px solid #ffbf47;outline-offset:2px}
.error{color:#a30000;background:#fde8e8;padding:.6rem;border-radius:4px}.note{color:#444;font-size:.9rem}a{color:#1f4fd1}`;

export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function errorBlock(message: string | undefined): string {
  return message ? `<p class="error" role="alert" id="error">${escapeHtml(message)}</p>` : '';
}

/**
 * The only page an `/authorize` request leads to, whatever its `screen_hint` (`login` or
 * `signup`): sign-up is disabled on the connection, so like Auth0's Universal Login in that case
 * it offers no way to create an account.
 */
function loginPage(
  uid: string,
  clientId: string,
  options: { email?: string; error?: string; organization?: Organization | undefined } = {},
): string {
  const to = options.organization
    ? `<p class="note" id="organization">to ${escapeHtml(options.organization.display_name ?? options.organization.name)}</p>`
    : '';
  return htmlPage(
    'Log in',
    `<h1>Log in</h1>${to}${errorBlock(options.error)}
<form method="post" action="/u/login/${escapeHtml(uid)}" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Continue</button>
</form>
<p class="note"><a href="/u/reset-password?client_id=${encodeURIComponent(clientId)}">Forgot password?</a></p>`,
  );
}

/**
 * An organization invitation's page (`/authorize` with `invitation` and `organization`): the
 * invited address is fixed; a new person chooses a password (signing up on the invitation's
 * connection), someone with an account gives theirs.
 */
function invitationPage(
  uid: string,
  invitation: Invitation,
  organization: Organization,
  existing: boolean,
  error?: string,
): string {
  const name = escapeHtml(organization.display_name ?? organization.name);
  const title = `Join ${organization.display_name ?? organization.name}`;
  return htmlPage(
    title,
    `<h1>Join ${name}</h1>${errorBlock(error)}
<p class="note" id="invitation">${escapeHtml(invitation.inviter.name)} has invited you to join ${name}.</p>
<form method="post" action="/u/login/${escapeHtml(uid)}" novalidate>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" readonly value="${escapeHtml(invitation.invitee.email)}">
<label for="password">${existing ? 'Password' : 'Choose a password'}</label>
<input id="password" name="password" type="password" autocomplete="${existing ? 'current-password' : 'new-password'}" minlength="${MIN_PASSWORD_LENGTH}" required>
${existing ? '' : `<p class="note">At least ${MIN_PASSWORD_LENGTH} characters.</p>`}
<button type="submit">${existing ? 'Log in and accept' : 'Accept invitation'}</button>
</form>`,
  );
}

function resetPage(ticket: string, error?: string): string {
  return htmlPage(
    'Change your password',
    `<h1>Change your password</h1>${errorBlock(error)}
<form method="post" action="/lo/reset">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
<label for="confirm">Confirm new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
<p class="note">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<button type="submit">Reset password</button>
</form>`,
  );
}

function forgotPage(clientId: string, message?: string): string {
  return htmlPage(
    'Forgot your password?',
    `<h1>Forgot your password?</h1>${message ? `<p role="status" id="status">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/u/reset-password">
<input type="hidden" name="client_id" value="${escapeHtml(clientId)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<button type="submit">Send reset link</button>
</form>`,
  );
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export interface PageDeps {
  provider: Provider;
  users: UserStore;
  tickets: TicketService;
  actionClaims: ActionClaims;
  organizations: OrganizationStore;
}

/**
 * The login's grant, recorded with the organization it was made for (tokens issued from it carry
 * `org_id`, refreshes included). A grant of another organization (or of none) is not reused.
 */
async function saveGrant(
  deps: Pick<PageDeps, 'provider' | 'organizations'>,
  accountId: string,
  details: InteractionDetails,
  organization?: Organization,
): Promise<string> {
  const { provider, organizations } = deps;
  const clientId = String(details.params.client_id);
  const sameOrganization =
    details.grantId !== undefined &&
    organizations.grantOrganization(details.grantId)?.id === organization?.id;
  const existing =
    details.grantId && details.session?.accountId === accountId && sameOrganization
      ? await provider.Grant.find(details.grantId)
      : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  // Auth0 first-party applications never show a consent screen: grant what was requested.
  const scope = str(details.params.scope);
  if (scope) grant.addOIDCScope(scope);
  const resource = details.params.resource;
  const resources = Array.isArray(resource) ? resource : typeof resource === 'string' ? [resource] : [];
  for (const indicator of resources) grant.addResourceScope(String(indicator), scope);
  const grantId = await grant.save();
  organizations.setGrantOrganization(grantId, organization?.id);
  return grantId;
}

/** Auth0 refuses a login through an organization the user is not a member of. */
function notAMember(user: { user_id: string }, organization: Organization) {
  return {
    error: 'access_denied',
    error_description: `user ${user.user_id} is not part of the ${organization.id} organization`,
  };
}

/** Login interaction (GET shows the form or auto-consents; POST checks the credentials and runs the Action). */
export async function handleInteraction(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const { provider, users } = deps;
  let details: InteractionDetails;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    sendHtml(
      res,
      400,
      htmlPage(
        'Session expired',
        '<h1>Session expired</h1><p>Your login session expired. Start again from the app.</p>',
      ),
    );
    return;
  }
  if (details.uid !== uid) {
    sendHtml(res, 400, htmlPage('Invalid request', '<h1>Invalid request</h1>'));
    return;
  }
  const clientId = String(details.params.client_id);
  const { organizations } = deps;
  // Checked at /authorize already (provider.ts, extraParams); looked up again for this step.
  const organization = str(details.params.organization)
    ? organizations.findByIdOrName(str(details.params.organization))
    : undefined;
  const ticket = str(details.params.invitation);
  const invitation = ticket ? organizations.invitationByTicket(ticket) : undefined;
  if (ticket && (!invitation || !organization || invitation.organization_id !== organization.id)) {
    await provider.interactionFinished(
      req,
      res,
      {
        error: 'invalid_request',
        error_description: 'the invitation was not found, or was already accepted',
      },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (invitation && organization) {
    return acceptInvitation(deps, req, res, details, invitation, organization);
  }

  if (req.method === 'GET') {
    if (details.prompt.name === 'login') {
      sendHtml(res, 200, loginPage(uid, clientId, { organization }));
      return;
    }
    const accountId = details.session?.accountId;
    if (!accountId) {
      sendHtml(res, 200, loginPage(uid, clientId, { organization }));
      return;
    }
    if (organization && !organizations.membership(organization.id, accountId)) {
      await provider.interactionFinished(req, res, notAMember({ user_id: accountId }, organization), {
        mergeWithLastSubmission: false,
      });
      return;
    }
    const grantId = await saveGrant(deps, accountId, details, organization);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }

  if (req.method !== 'POST') {
    sendText(res, 405, 'Method Not Allowed');
    return;
  }
  let body: Record<string, unknown>;
  try {
    body = await readBody(req);
  } catch (error) {
    sendHtml(res, 400, loginPage(uid, clientId, { error: (error as Error).message, organization }));
    return;
  }
  const email = str(body.email).trim();
  const password = str(body.password);
  const user = email && password ? await users.authenticate(email, password) : undefined;
  if (!user) {
    sendHtml(res, 401, loginPage(uid, clientId, { email, error: 'Wrong email or password.', organization }));
    return;
  }
  if (user.blocked) {
    sendHtml(
      res,
      401,
      loginPage(uid, clientId, { email, error: 'Your account has been blocked. Contact support.' }),
    );
    return;
  }
  if (organization && !organizations.membership(organization.id, user.user_id)) {
    await provider.interactionFinished(req, res, notAMember(user, organization), {
      mergeWithLastSubmission: false,
    });
    return;
  }
  await completeLogin(deps, req, res, details, user, organization);
}

/** Runs the post-login Action (with `event.organization`) and finishes the login, or its denial. */
async function completeLogin(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  details: InteractionDetails,
  user: StoredUser,
  organization: Organization | undefined,
): Promise<void> {
  const { provider, users, actionClaims } = deps;
  const clientId = String(details.params.client_id);
  const resource = details.params.resource;
  const result = await actionClaims.run(
    user,
    clientId,
    'oidc-basic-profile',
    str(details.params.scope),
    typeof resource === 'string' ? resource : undefined,
    passwordJustGiven(),
    organization,
  );
  if (result.denied !== undefined) {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: result.denied },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  actionClaims.rememberLogin(user.user_id, clientId, result);
  users.recordLogin(user.user_id);
  const grantId = await saveGrant(deps, user.user_id, details, organization);
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user.user_id, amr: completedFactors(result) }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/**
 * Accepting an organization invitation: the invitee signs up on the invitation's connection with
 * a password of their choosing (or, with an account already, gives their password); the email is
 * verified (the invitation's link proved the address); they become a member with the invitation's
 * roles; the invitation is used up (Auth0 deletes an accepted invitation); the login goes on
 * through the organization.
 */
async function acceptInvitation(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  details: InteractionDetails,
  invitation: Invitation,
  organization: Organization,
): Promise<void> {
  const { provider, users, organizations } = deps;
  const existing = users.findByEmail(invitation.invitee.email);
  if (req.method === 'GET') {
    sendHtml(res, 200, invitationPage(details.uid, invitation, organization, existing !== undefined));
    return;
  }
  if (req.method !== 'POST') return sendText(res, 405, 'Method Not Allowed');
  let body: Record<string, unknown>;
  try {
    body = await readBody(req);
  } catch (error) {
    sendHtml(
      res,
      400,
      invitationPage(details.uid, invitation, organization, !!existing, (error as Error).message),
    );
    return;
  }
  const password = str(body.password);
  // Read again: another tab may have accepted it, or it expired, while the page was open.
  const live = organizations.invitationByTicket(invitation.ticket_id);
  if (!live || Date.parse(live.expires_at) <= Date.now()) {
    await provider.interactionFinished(
      req,
      res,
      { error: 'invalid_request', error_description: 'the invitation has expired, or was already accepted' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  let user: StoredUser | undefined;
  if (existing) {
    user = await users.authenticate(existing.email, password);
    if (!user) {
      sendHtml(res, 401, invitationPage(details.uid, invitation, organization, true, 'Wrong password.'));
      return;
    }
  } else {
    if (password.length < MIN_PASSWORD_LENGTH) {
      sendHtml(
        res,
        400,
        invitationPage(
          details.uid,
          invitation,
          organization,
          false,
          `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
        ),
      );
      return;
    }
    try {
      user = await users.create({
        email: invitation.invitee.email,
        password,
        emailVerified: true,
        appMetadata: structuredClone(invitation.app_metadata),
        userMetadata: structuredClone(invitation.user_metadata),
      });
    } catch {
      // Created meanwhile (another acceptance): start again from the link.
      sendHtml(
        res,
        409,
        invitationPage(details.uid, invitation, organization, true, 'Log in with your password.'),
      );
      return;
    }
  }
  if (user.blocked) {
    sendHtml(
      res,
      401,
      invitationPage(details.uid, invitation, organization, true, 'Your account has been blocked.'),
    );
    return;
  }
  // Used once: a second acceptance of the same link finds nothing.
  if (!organizations.invitationByTicket(invitation.ticket_id)) {
    await provider.interactionFinished(
      req,
      res,
      { error: 'invalid_request', error_description: 'the invitation has expired, or was already accepted' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  organizations.deleteInvitation(invitation.id);
  const verified = users.update(user.user_id, (u) => {
    u.email_verified = true;
  });
  organizations.addMembers(organization.id, [user.user_id]);
  if (invitation.roles.length > 0) organizations.assignRoles(organization.id, user.user_id, invitation.roles);
  await completeLogin(deps, req, res, details, verified ?? user, organization);
}

export async function handleEmailVerification(deps: PageDeps, url: URL, res: ServerResponse): Promise<void> {
  const id = url.searchParams.get('ticket') ?? '';
  const ticket = deps.users.findTicket(id, 'email_verification');
  if (!ticket) {
    sendHtml(
      res,
      400,
      htmlPage(
        'Link expired',
        '<h1>Link expired</h1><p>This verification link has expired or was already used.</p>',
      ),
    );
    return;
  }
  deps.users.update(ticket.user_id, (u) => {
    u.email_verified = true;
  });
  deps.users.consumeTicket(ticket.id);
  sendHtml(
    res,
    200,
    htmlPage(
      'Email verified',
      '<h1>Email verified</h1><p id="status">Your email address was successfully verified. You can close this window.</p>',
    ),
  );
}

export async function handlePasswordReset(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const expired = () =>
    sendHtml(
      res,
      400,
      htmlPage(
        'Link expired',
        '<h1>Link expired</h1><p>This password link has expired or was already used.</p>',
      ),
    );
  if (req.method === 'GET') {
    const id = url.searchParams.get('ticket') ?? '';
    if (!deps.users.findTicket(id, 'password_change')) return expired();
    sendHtml(res, 200, resetPage(id));
    return;
  }
  if (req.method !== 'POST') return sendText(res, 405, 'Method Not Allowed');
  let body: Record<string, unknown>;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyError) return sendText(res, 400, error.message);
    throw error;
  }
  const id = str(body.ticket);
  const ticket = deps.users.findTicket(id, 'password_change');
  if (!ticket) return expired();
  const password = str(body.password);
  const confirm = str(body.confirm);
  if (password.length < MIN_PASSWORD_LENGTH) {
    sendHtml(res, 400, resetPage(id, `Use at least ${MIN_PASSWORD_LENGTH} characters.`));
    return;
  }
  if (password !== confirm) {
    sendHtml(res, 400, resetPage(id, 'The passwords do not match.'));
    return;
  }
  const passwordHash = await hashPassword(password);
  const user = deps.users.update(ticket.user_id, (u) => {
    u.password_hash = passwordHash;
    if (ticket.mark_email_as_verified) u.email_verified = true;
  });
  deps.users.consumeTicket(ticket.id);
  if (!user) return expired();
  if (ticket.result_url) {
    const target = new URL(ticket.result_url);
    target.searchParams.set('success', 'true');
    target.searchParams.set('message', 'You can now login to the application with the new password.');
    if (ticket.include_email_in_redirect) target.searchParams.set('email', user.email);
    redirect(res, target.href);
    return;
  }
  sendHtml(
    res,
    200,
    htmlPage(
      'Password changed',
      '<h1>Password changed</h1><p id="status">You can now log in with your new password.</p>',
    ),
  );
}

export async function handleForgotPassword(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  if (req.method === 'GET') {
    sendHtml(res, 200, forgotPage(url.searchParams.get('client_id') ?? ''));
    return;
  }
  const body = await readBody(req);
  const clientId = str(body.client_id);
  await deps.tickets.requestPasswordReset(str(body.email), clientId || undefined);
  sendHtml(res, 200, forgotPage(clientId, RESET_SENT_MESSAGE));
}

/** Auth0 Authentication API `POST /dbconnections/change_password`. */
export async function handleChangePasswordApi(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = await readBody(req);
  } catch (error) {
    return sendText(res, 400, (error as Error).message);
  }
  const email = str(body.email);
  const connection = str(body.connection);
  if (!email) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'invalid_request', error_description: 'email is required' }));
    return;
  }
  if (connection && connection !== DATABASE_CONNECTION) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'invalid_request', error_description: 'connection not found' }));
    return;
  }
  await deps.tickets.requestPasswordReset(email, str(body.client_id) || undefined);
  sendText(res, 200, RESET_SENT_MESSAGE);
}

/**
 * Auth0 Authentication API `POST /dbconnections/signup`. Every stage's database connection has
 * public sign-up disabled (infra/auth0/provision: accounts come only from POST /api/registrations
 * through the Management API), and Auth0 refuses a sign-up there with 400 and this body. Nothing
 * is read or created, whatever the body holds.
 */
export async function handleSignupApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await readBody(req);
  } catch {
    // The answer is the same for any body: sign-up is off.
  }
  res.writeHead(400, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(SIGNUP_DISABLED));
}

/** What Auth0 answers to a sign-up on a connection with `disable_signup` (ADR 0021). */
export const SIGNUP_DISABLED = { error: 'public signup is disabled' } as const;
