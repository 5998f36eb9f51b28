// Auth0's Management API rate limit, as the local identity provider enforces it (ADR 0061): one
// token bucket per tenant, shared by every caller, sized and refilled as Auth0's rate-limit policy
// documents for the tenant's plan; and the counts `GET /__local/management-api/stats` answers.

/** A Management API quota: Auth0's "burst request limit" (bucket size) and "sustained" refill rate. */
export interface ManagementApiPlan {
  name: string;
  /** Requests the bucket holds: Auth0's burst request limit, sent as `x-ratelimit-limit`. */
  burst: number;
  /** Requests added back per second (continuously, by the millisecond, as Auth0 does). */
  perSecond: number;
}

/**
 * Auth0's public-cloud plans (Rate Limit Configurations, production tenants): Free, "Management |
 * 2 | 2/second"; Self Service, 16/s sustained with a burst of 50 (the Management API burst
 * capability table, the same as Enterprise production). Sources in ADR 0061.
 */
export const auth0Plans = {
  free: { name: 'free', burst: 2, perSecond: 2 },
  'self-service': { name: 'self-service', burst: 50, perSecond: 16 },
} as const satisfies Record<string, ManagementApiPlan>;

export type Auth0PlanName = keyof typeof auth0Plans;

export const defaultAuth0Plan: Auth0PlanName = 'free';

/** `LOCAL_AUTH0_PLAN` → the plan; unset or empty is the default (`free`); anything else throws. */
export function auth0PlanFromEnv(value: string | undefined): ManagementApiPlan {
  const name = value === undefined || value.trim() === '' ? defaultAuth0Plan : value.trim();
  if (!Object.hasOwn(auth0Plans, name)) {
    throw new Error(
      `LOCAL_AUTH0_PLAN must be one of ${Object.keys(auth0Plans).join(', ')}, got "${value ?? ''}"`,
    );
  }
  return auth0Plans[name as Auth0PlanName];
}

/** What one request found in the bucket, and the `x-ratelimit-*` headers that say it. */
export interface BucketAnswer {
  allowed: boolean;
  /** `x-ratelimit-limit`: the bucket's size. */
  limit: number;
  /** `x-ratelimit-remaining`: whole requests left once this one is counted. */
  remaining: number;
  /** `x-ratelimit-reset`: the epoch second by which the bucket is full again. */
  reset: number;
}

/**
 * A token bucket with continuous refill. Tokens are kept in thousandths, so whole-millisecond
 * clocks and whole-number rates refill without rounding drift. The clock is injected (tests).
 */
export class TokenBucket {
  private milliTokens: number;
  private updatedAt: number;

  constructor(
    readonly plan: Pick<ManagementApiPlan, 'burst' | 'perSecond'>,
    private readonly now: () => number = Date.now,
  ) {
    if (!(plan.burst >= 1) || !(plan.perSecond > 0)) {
      throw new Error(`a bucket needs burst >= 1 and perSecond > 0, got ${JSON.stringify(plan)}`);
    }
    this.milliTokens = plan.burst * 1000;
    this.updatedAt = now();
  }

  private refill(at: number): void {
    const elapsed = Math.max(0, at - this.updatedAt);
    // perSecond tokens a second = perSecond thousandths a millisecond.
    this.milliTokens = Math.min(this.plan.burst * 1000, this.milliTokens + elapsed * this.plan.perSecond);
    this.updatedAt = Math.max(this.updatedAt, at);
  }

  private answer(at: number, allowed: boolean): BucketAnswer {
    const missing = this.plan.burst * 1000 - this.milliTokens;
    const fullAt = at + missing / this.plan.perSecond;
    return {
      allowed,
      limit: this.plan.burst,
      remaining: Math.floor(this.milliTokens / 1000),
      // Rounded up: a caller that waits until this second never comes back early.
      reset: Math.ceil(fullAt / 1000),
    };
  }

  /** Takes one request's token when there is one; either way answers what the headers say. */
  take(): BucketAnswer {
    const at = this.now();
    this.refill(at);
    if (this.milliTokens < 1000) return this.answer(at, false);
    this.milliTokens -= 1000;
    return this.answer(at, true);
  }

  /** The bucket as it is now, nothing taken (the headers of a fault knob's answer). */
  peek(): BucketAnswer {
    const at = this.now();
    this.refill(at);
    return this.answer(at, this.milliTokens >= 1000);
  }
}

export function rateLimitHeaders(answer: Pick<BucketAnswer, 'limit' | 'remaining' | 'reset'>) {
  return {
    'x-ratelimit-limit': String(answer.limit),
    'x-ratelimit-remaining': String(answer.remaining),
    'x-ratelimit-reset': String(answer.reset),
  };
}

/** Auth0's answer when a rate limit is reached (the same for the Management API's global bucket). */
export const rateLimitedBody = {
  statusCode: 429,
  error: 'Too Many Requests',
  message: 'Global limit has been reached',
  errorCode: 'too_many_requests',
} as const;

/**
 * The identity provider's counters of Management API calls: `GET` answers `ManagementApiStats`,
 * `DELETE` zeroes them (answering what they were). Loopback only, like `/__local/faults`.
 */
export const managementApiStatsPath = '/__local/management-api/stats';

/** The shape `GET /__local/management-api/stats` answers (the bench and the load run read it). */
export interface ManagementApiStats {
  plan: string;
  /** Every Management API request received, 429s included. */
  calls: number;
  /** Requests answered 429, by the bucket or by the fault knob. */
  rateLimited: number;
  /** The most requests received within one wall-clock second. */
  peakPerSecond: number;
  /** Calls per M2M client id (the token's `azp`, else `client_id`). */
  byClient: Record<string, number>;
  /** Calls per operation, ids replaced by placeholders: `GET /api/v2/users/{id}`. */
  byOperation: Record<string, number>;
}

/** Keys for calls whose token names no client (missing, malformed), and past the key cap. */
export const NO_CLIENT = '(none)';
export const OTHER_OPERATIONS = '(other)';
const MAX_KEYS = 200;

/** A path segment that names something rather than a resource: `users`, `verification-email`. */
const staticSegment = /^[a-z]+(?:-[a-z]+)*$/;

/**
 * `GET /api/v2/users/auth0%7C123?fields=x` → `GET /api/v2/users/{id}`: every segment after the
 * collection that is not a plain lowercase word (Auth0's ids carry `|`, `_`, digits or capitals),
 * and the segment after `name` (`/organizations/name/acme`), becomes `{id}`; the query is dropped.
 */
export function operationKey(method: string, path: string): string {
  const [, ...rest] = path.split('?')[0]?.split('/') ?? [];
  const segments = rest.map((segment, index) => {
    // `api`, `v2` and the collection stay as they are.
    if (index < 3 || segment === '') return segment;
    // What follows `name` is a name, whatever it looks like: `/organizations/name/{id}`.
    if (rest[index - 1] === 'name') return '{id}';
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return '{id}';
    }
    return staticSegment.test(decoded) ? decoded : '{id}';
  });
  return `${method.toUpperCase()} /${segments.join('/')}`;
}

/** The calling client, read from the bearer token's claims (not verified here: the route does). */
export function clientOf(authorization: string | undefined): string {
  const token = /^Bearer\s+([^.\s]+)\.([^.\s]+)\.[^.\s]*$/i.exec(authorization ?? '');
  if (!token?.[2]) return NO_CLIENT;
  try {
    const payload: unknown = JSON.parse(Buffer.from(token[2], 'base64url').toString('utf8'));
    if (!payload || typeof payload !== 'object') return NO_CLIENT;
    const { azp, client_id: clientId } = payload as { azp?: unknown; client_id?: unknown };
    const id = typeof azp === 'string' && azp ? azp : typeof clientId === 'string' ? clientId : '';
    return id || NO_CLIENT;
  } catch {
    return NO_CLIENT;
  }
}

/** The counters behind the stats endpoint; `reset()` zeroes them (the bucket is left as it is). */
export function createManagementApiStats(plan: string, now: () => number = Date.now) {
  let calls = 0;
  let rateLimited = 0;
  let peakPerSecond = 0;
  let second = -1;
  let inSecond = 0;
  let byClient = new Map<string, number>();
  let byOperation = new Map<string, number>();

  const bump = (map: Map<string, number>, key: string, overflow: string) => {
    const target = map.has(key) || map.size < MAX_KEYS ? key : overflow;
    map.set(target, (map.get(target) ?? 0) + 1);
  };

  return {
    /** Counts one request received, before it is answered. */
    received(input: { method: string; path: string; authorization: string | undefined }): void {
      calls += 1;
      const current = Math.floor(now() / 1000);
      if (current !== second) {
        second = current;
        inSecond = 0;
      }
      inSecond += 1;
      peakPerSecond = Math.max(peakPerSecond, inSecond);
      bump(byClient, clientOf(input.authorization), NO_CLIENT);
      bump(byOperation, operationKey(input.method, input.path), OTHER_OPERATIONS);
    },
    /** Counts one answer of 429 (the bucket's or the fault knob's). */
    limited(): void {
      rateLimited += 1;
    },
    snapshot(): ManagementApiStats {
      return {
        plan,
        calls,
        rateLimited,
        peakPerSecond,
        byClient: Object.fromEntries(byClient),
        byOperation: Object.fromEntries(byOperation),
      };
    },
    reset(): void {
      calls = 0;
      rateLimited = 0;
      peakPerSecond = 0;
      second = -1;
      inSecond = 0;
      byClient = new Map();
      byOperation = new Map();
    },
  };
}

export type ManagementApiStatsCounter = ReturnType<typeof createManagementApiStats>;
