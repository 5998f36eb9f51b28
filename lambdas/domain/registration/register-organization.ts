import { createHash, randomBytes } from 'node:crypto';
import { type ApiLocale, defaultApiLocale, isApiLocale } from '#contracts/locale.ts';
import type { RegistrationRequest } from '#contracts/registration.ts';
import { appLink } from '#lambdas/domain/emails/html.ts';
import { mayEmailRecipient } from '#lambdas/domain/emails/recipient-limit.ts';
import {
  accountExistsEmail,
  loginInstructionsEmail,
  registrationWelcomePath,
} from '#lambdas/domain/emails/registration-emails.ts';
import type {
  Clock,
  ConsentLedger,
  DirectoryOrganization,
  DirectoryUser,
  EventPublisher,
  Mailer,
  OnceMarker,
  OrganizationDirectory,
  OrganizationRecords,
  RateLimiter,
  UserDirectory,
  UserProfiles,
} from '#lambdas/domain/ports.ts';
import { OrganizationNameTakenError, UserAlreadyExistsError } from '#lambdas/domain/ports.ts';
import { normaliseEmail } from '#lambdas/domain/submissions/normalise.ts';
import {
  passwordTicketTtlDays,
  type RegistrationProgress,
  type RegistrationRecord,
  type RegistrationStore,
  type RequestContext,
} from './ports.ts';

// The account work of a registration, run by the ProcessRegistration event target after the API
// has accepted the request (accept-registration.ts; ADR 0033). The steps are idempotent and their
// progress is stored per email, so a delivery retried after a failure half-way completes the
// missing steps and never creates a second user. Registrations of one address run one at a time
// (ADR 0036): two that overlapped would both find no user, both adopt the one that was created,
// and both send login instructions.

export interface AgreementsInput extends RequestContext {
  subjectId: string;
  issuer: string;
}

export interface RegisterDeps {
  users: UserDirectory;
  /** Auth0 Organizations: the organization registration creates, its first member (ADR 0083). */
  organizations: OrganizationDirectory;
  /** The product's record of the organization, which the signed-in screens read (ADR 0083). */
  organizationRecords: Pick<OrganizationRecords, 'saveOnce'>;
  store: RegistrationStore;
  profiles: Pick<UserProfiles, 'saveAccount'>;
  /** Read on a retry, to tell whether the agreements were recorded before the marker was saved. */
  ledger: Pick<ConsentLedger, 'listBySubject'>;
  /** Appends the three registration agreements to the consent ledger. */
  recordAgreements(input: AgreementsInput): Promise<unknown>;
  mailer: Mailer;
  /** The per-recipient limit of the "you already have an account" email (anyone can trigger it). */
  limiter: RateLimiter;
  events: EventPublisher;
  clock: Clock;
  /** The web origin, for links in emails. */
  appUrl: string;
  /** The identity provider's issuer: the ledger subject is (`sub`, issuer). */
  issuer: string;
  /** A password nobody sees: the user sets their own through the ticket link. */
  generatePassword?: () => string;
  /**
   * Taken per address (its SHA-256) for the duration of one registration and released after; a
   * holder that died leaves it to go stale (longer than the function's timeout).
   */
  inProgress: OnceMarker;
  /** Waits between looks at a busy address; tests pass one that does not sleep. */
  wait?: (ms: number) => Promise<void>;
  /** The organization name's unique suffix; tests pass a fixed one. */
  organizationSuffix?: () => string;
}

/** Another registration of the same address is under way: the event is delivered again later. */
export class RegistrationInProgressError extends Error {
  constructor() {
    super('Another registration of this address is under way; retry later.');
    this.name = 'RegistrationInProgressError';
  }
}

/**
 * How long a registration waits for another of the same address before giving the event back to
 * EventBridge: a third of the function's 60 s timeout, longer than a registration takes in a burst.
 */
export const addressBusyWaitMs = 20_000;

export type RegistrationOutcome =
  | 'account_exists'
  /** An existing account whose address had its "you already have an account" emails for the day. */
  | 'account_exists_not_emailed'
  /** The address's own registration, whose password link was never used: its login email again. */
  | 'login_instructions_resent'
  | 'registered';

/** 256 random bits, plus one character of each class so any Auth0 password policy accepts it. */
export function randomInitialPassword(): string {
  return `${randomBytes(32).toString('base64url')}aA1!`;
}

const registrationPurposes = ['terms_of_service', 'privacy_policy', 'non_harmful_use'] as const;

/**
 * A user the identity provider reports for an email whose registration we started but whose
 * `create` answer we never saw (timeout, 5xx, then 409 on the retry) is ours to adopt, but only
 * if it looks exactly like what registration creates and the attempt is recent.
 */
const adoptWindowMs = 24 * 60 * 60 * 1000;

function looksFreshlyRegistered(user: DirectoryUser): boolean {
  const { role, kyc_status } = user.appMetadata;
  return role === 'user' && (kyc_status === undefined || kyc_status === 'not_started');
}

function canResume(progress: RegistrationProgress | undefined, user: DirectoryUser, now: Date): boolean {
  if (!progress || progress.completedAt) return false;
  if (progress.userId) return progress.userId === user.userId;
  return now.getTime() - Date.parse(progress.startedAt) < adoptWindowMs && looksFreshlyRegistered(user);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Auth0's limit on an organization's `name` (lowercase letters, digits, `_`, `-`). */
const organizationNameMaxLength = 50;

/** Eight random hex digits: 2^32 names per slug, so two registrations never pick the same one. */
export function randomOrganizationSuffix(): string {
  return randomBytes(4).toString('hex');
}

/**
 * A valid Auth0 organization name for a registering organization: its name folded to lowercase
 * ASCII letters and digits joined by `-`, cut to leave room for `-` and the suffix. A name with no
 * such character (all CJK, say) becomes `org-<suffix>`; `display_name` keeps the real name.
 */
export function auth0OrganizationName(organizationName: string, suffix: string): string {
  let slug = organizationName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, organizationNameMaxLength - suffix.length - 1);
  // Runs of other characters became one `-` each: at most one at either end.
  if (slug.startsWith('-')) slug = slug.slice(1);
  if (slug.endsWith('-')) slug = slug.slice(0, -1);
  return `${slug || 'org'}-${suffix}`;
}

export function registerOrganization(deps: RegisterDeps) {
  const generatePassword = deps.generatePassword ?? randomInitialPassword;
  const nowIso = () => deps.clock.now().toISOString();
  const wait = deps.wait ?? sleep;
  const organizationSuffix = deps.organizationSuffix ?? randomOrganizationSuffix;

  async function takeAddress(key: string): Promise<void> {
    let waited = 0;
    while (!(await deps.inProgress.take(key))) {
      if (waited >= addressBusyWaitMs) throw new RegistrationInProgressError();
      // Jittered, so the repeats of one address do not look again in step.
      const pause = 200 + Math.floor(Math.random() * 300);
      await wait(pause);
      waited += pause;
    }
  }

  async function save(progress: RegistrationProgress): Promise<RegistrationProgress> {
    await deps.store.saveProgress(progress);
    return progress;
  }

  async function agreementsAlreadyRecorded(userId: string): Promise<boolean> {
    const records = await deps.ledger.listBySubject(userId);
    return registrationPurposes.every((purpose) =>
      records.some(
        (r) => r.purpose === purpose && r.method === 'registration_wizard' && r.action === 'granted',
      ),
    );
  }

  /** The password link of the login instructions: after it, the first sign-in lands on the welcome. */
  function createLoginTicket(userId: string, organizationId: string | undefined): Promise<string> {
    return deps.users.createPasswordChangeTicket(
      userId,
      appLink(deps.appUrl, registrationWelcomePath(organizationId)),
    );
  }

  /** Emails answering this request are in its language (issue 28). */
  async function accountExists(
    user: DirectoryUser,
    email: string,
    locale: ApiLocale,
    previous?: RegistrationProgress,
  ): Promise<{ outcome: RegistrationOutcome }> {
    const to = user.email || email;
    if (!(await mayEmailRecipient(deps.limiter, 'account-exists-email', to))) {
      return { outcome: 'account_exists_not_emailed' };
    }
    // "Resend" on /check-your-email registers the same address again (ADR 0086). The account this
    // address's own registration created, whose password link was never used (the link verifies the
    // address), gets its login instructions again with a new link; any other account gets "you
    // already have an account". The answer to the request is the same either way (ADR 0033), and
    // both emails draw on the same per-recipient budget.
    if (previous?.completedAt && previous.userId === user.userId && !user.emailVerified) {
      const ticketUrl = await createLoginTicket(user.userId, previous.organizationId);
      await deps.mailer.send(
        loginInstructionsEmail({
          to,
          ticketUrl,
          ticketTtlDays: passwordTicketTtlDays,
          appUrl: deps.appUrl,
          organizationId: previous.organizationId,
          locale,
        }),
      );
      return { outcome: 'login_instructions_resent' };
    }
    await deps.mailer.send(accountExistsEmail({ to, appUrl: deps.appUrl, locale }));
    return { outcome: 'account_exists' };
  }

  /**
   * The registering organization's Auth0 Organization, with the user as its first member holding
   * `org_admin` (ADR 0083): three Management API calls (create, add member, assign the role), plus
   * the role's id once per container. Each answer is recorded before the next call, so a retry
   * never creates a second organization: the name is saved before the create, and a create whose
   * answer was lost (a timeout, then 409 on the retry) is found by that name. Adding a member and
   * a role twice changes nothing, so they are simply repeated until recorded.
   */
  async function joinOrganization(
    previous: RegistrationProgress,
    request: Omit<RegistrationRequest, 'website'>,
    userId: string,
  ): Promise<RegistrationProgress> {
    let progress = previous;
    if (progress.organizationJoined) return progress;
    if (!progress.organizationId) {
      if (!progress.auth0OrganizationName) {
        progress = await save({
          ...progress,
          auth0OrganizationName: auth0OrganizationName(request.organizationName, organizationSuffix()),
        });
      }
      const name = progress.auth0OrganizationName as string;
      const metadata = { organization_type: request.organizationType, registered_by: userId };
      let organization: DirectoryOrganization;
      try {
        organization = await deps.organizations.createOrganization({
          name,
          displayName: request.organizationName,
          metadata,
        });
      } catch (error) {
        if (!(error instanceof OrganizationNameTakenError)) throw error;
        // Our own earlier create whose answer was lost; anything else under this name is not ours.
        const found = await deps.organizations.findOrganizationByName(name);
        if (!found)
          throw new Error('The identity provider reported a taken name but has no such organization');
        if (found.metadata.registered_by !== userId) {
          // Not ours (2^-32 a pair): forget the name, so the retry of this delivery picks another.
          const { auth0OrganizationName: _taken, ...rest } = progress;
          await save(rest);
          throw new Error('An organization of another registration holds the chosen name');
        }
        organization = found;
      }
      progress = await save({ ...progress, organizationId: organization.id });
    }
    await deps.organizations.addMember(progress.organizationId as string, userId, ['org_admin']);
    return save({ ...progress, organizationJoined: true });
  }

  async function registerAddress(
    request: Omit<RegistrationRequest, 'website'>,
    email: string,
    context: RequestContext,
  ): Promise<{ outcome: RegistrationOutcome; userId?: string }> {
    // The registering request's language (issue 28); anything else stored is English.
    const locale: ApiLocale = isApiLocale(context.locale) ? context.locale : defaultApiLocale;
    const [existing, previous] = await Promise.all([
      deps.users.findByEmail(email),
      deps.store.getProgress(email),
    ]);

    let progress: RegistrationProgress;
    let user: DirectoryUser;
    if (existing) {
      if (!previous || !canResume(previous, existing, deps.clock.now()))
        return accountExists(existing, email, locale, previous);
      user = existing;
      progress = previous.userId ? previous : await save({ ...previous, userId: existing.userId });
    } else {
      // Saved before the create: a retry that then finds the user knows it was this attempt's.
      progress = await save({ email, startedAt: nowIso() });
      try {
        user = await deps.users.create({
          email,
          name: request.responsibleName,
          password: generatePassword(),
          appMetadata: {
            role: 'user',
            organization_type: request.organizationType,
            kyc_status: 'not_started',
            // Dated, so the profile can record exactly what Auth0 holds (below; ADR 0059).
            kyc_updated_at: nowIso(),
          },
        });
      } catch (error) {
        if (!(error instanceof UserAlreadyExistsError)) throw error;
        // Our own earlier (timed-out) create, or a concurrent identical request.
        const found = await deps.users.findByEmail(email);
        if (!found) throw new Error('The identity provider reported a conflict but has no such user yet');
        if (!canResume(progress, found, deps.clock.now())) return accountExists(found, email, locale);
        user = found;
      }
      progress = await save({ ...progress, userId: user.userId });
    }

    const userId = user.userId;
    progress = await joinOrganization(progress, request, userId);
    const organizationId = progress.organizationId;
    const registration: RegistrationRecord = await deps.store.saveRegistrationOnce({
      userId,
      email,
      responsibleName: request.responsibleName,
      responsibleTitle: request.responsibleTitle,
      responsiblePhone: request.responsiblePhone,
      organizationName: request.organizationName,
      organizationUrl: request.organizationUrl,
      organizationType: request.organizationType,
      ...(organizationId ? { organizationId } : {}),
      locale,
      createdAt: nowIso(),
    });
    // A retry's request may name another language; the registration stored first decides.
    const registrationLocale = registration.locale ?? locale;
    if (organizationId) {
      // Written on every run, like the profile below: a retry repairs a lost write.
      await deps.organizationRecords.saveOnce({
        organizationId,
        displayName: registration.organizationName,
        organizationType: registration.organizationType,
        registeredBy: userId,
        email: registration.email,
        createdAt: registration.createdAt,
      });
    }
    // The account as the signed-in screens read it, without asking Auth0 (ADR 0059). Written on
    // every run: a retry repairs a profile whose write failed after the registration's.
    // Auth0's answer says what its app_metadata holds: recorded (when nothing newer is), the first
    // status sync patches without reading Auth0 first (ADR 0062).
    const auth0KycStatus = user.appMetadata.kyc_status;
    await deps.profiles.saveAccount({
      userId,
      email: registration.email,
      name: registration.responsibleName,
      organizationName: registration.organizationName,
      organizationType: registration.organizationType,
      // The organization this run created or found, also when the registration record is older.
      ...(organizationId ? { organizationId } : {}),
      registrationLocale,
      ...(auth0KycStatus
        ? { auth0Kyc: { status: auth0KycStatus, updatedAt: user.appMetadata.kyc_updated_at ?? '' } }
        : {}),
    });

    if (!progress.agreementsRecorded) {
      if (!(await agreementsAlreadyRecorded(userId))) {
        await deps.recordAgreements({ ...context, subjectId: userId, issuer: deps.issuer });
      }
      progress = await save({ ...progress, agreementsRecorded: true });
    }

    if (!progress.loginEmailSent) {
      // After the password is set, the first sign-in goes through the organization too, and lands
      // on /registration-success (ADR 0086).
      const ticketUrl = await createLoginTicket(userId, organizationId);
      await deps.mailer.send(
        loginInstructionsEmail({
          to: email,
          ticketUrl,
          ticketTtlDays: passwordTicketTtlDays,
          appUrl: deps.appUrl,
          organizationId,
          locale: registrationLocale,
        }),
      );
      progress = await save({ ...progress, loginEmailSent: true });
    }

    if (!progress.eventPublished) {
      await deps.events.publish([
        {
          detailType: 'RegistrationSubmitted',
          detail: {
            userId,
            organizationName: registration.organizationName,
            organizationType: registration.organizationType,
            occurredAt: registration.createdAt,
          },
        },
      ]);
      progress = await save({ ...progress, eventPublished: true, completedAt: nowIso() });
    }

    return { outcome: 'registered', userId };
  }

  return async (
    request: Omit<RegistrationRequest, 'website'>,
    context: RequestContext,
  ): Promise<{ outcome: RegistrationOutcome; userId?: string }> => {
    const email = normaliseEmail(request.responsibleEmail);
    // The exact address, not the email budget's mailbox (ADR 0072): `a+x@` and `a@` are two
    // accounts at the identity provider, and their registrations need not wait for each other.
    const key = createHash('sha256').update(email).digest('hex');
    await takeAddress(key);
    try {
      return await registerAddress(request, email, context);
    } finally {
      // A failed release must not fail a finished registration (its retry would then tell the new
      // user they already have an account): the marker goes stale instead.
      await deps.inProgress.release(key).catch(() => undefined);
    }
  };
}
