import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionDetails, Provider } from 'oidc-provider';
import { type ActionClaims, completedFactors, passwordJustGiven } from './action-claims.ts';
import { BodyError, escapeHtml, readBody, redirect, sendHtml, sendText } from './http-util.ts';
import type { TicketService } from './tickets.ts';
import { DATABASE_CONNECTION, hashPassword, type UserStore } from './user-store.ts';

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
function loginPage(uid: string, clientId: string, options: { email?: string; error?: string } = {}): string {
  return htmlPage(
    'Log in',
    `<h1>Log in</h1>${errorBlock(options.error)}
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
}

async function saveGrant(
  provider: Provider,
  accountId: string,
  details: InteractionDetails,
): Promise<string> {
  const clientId = String(details.params.client_id);
  const existing =
    details.grantId && details.session?.accountId === accountId
      ? await provider.Grant.find(details.grantId)
      : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  // Auth0 first-party applications never show a consent screen: grant what was requested.
  const scope = str(details.params.scope);
  if (scope) grant.addOIDCScope(scope);
  const resource = details.params.resource;
  const resources = Array.isArray(resource) ? resource : typeof resource === 'string' ? [resource] : [];
  for (const indicator of resources) grant.addResourceScope(String(indicator), scope);
  return grant.save();
}

/** Login interaction (GET shows the form or auto-consents; POST checks the credentials and runs the Action). */
export async function handleInteraction(
  deps: PageDeps,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const { provider, users, actionClaims } = deps;
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

  if (req.method === 'GET') {
    if (details.prompt.name === 'login') {
      sendHtml(res, 200, loginPage(uid, clientId));
      return;
    }
    const accountId = details.session?.accountId;
    if (!accountId) {
      sendHtml(res, 200, loginPage(uid, clientId));
      return;
    }
    const grantId = await saveGrant(provider, accountId, details);
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
    sendHtml(res, 400, loginPage(uid, clientId, { error: (error as Error).message }));
    return;
  }
  const email = str(body.email).trim();
  const password = str(body.password);
  const user = email && password ? await users.authenticate(email, password) : undefined;
  if (!user) {
    sendHtml(res, 401, loginPage(uid, clientId, { email, error: 'Wrong email or password.' }));
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
  const resource = details.params.resource;
  const result = await actionClaims.run(
    user,
    clientId,
    'oidc-basic-profile',
    str(details.params.scope),
    typeof resource === 'string' ? resource : undefined,
    passwordJustGiven(),
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
  const grantId = await saveGrant(provider, user.user_id, details);
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user.user_id, amr: completedFactors(result) }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
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
