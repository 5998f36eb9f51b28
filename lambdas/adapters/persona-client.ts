import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { requireEnv } from '#lambdas/config.ts';
import { InquiryProviderError } from '#lambdas/domain/kyc/errors.ts';
import type { Inquiry, InquiryProvider } from '#lambdas/domain/kyc/ports.ts';
import type { InquiryReader, InquirySnapshot } from '#lambdas/domain/kyc/reconcile-inquiries.ts';
import type {
  InquiryEvidence,
  InquiryEvidenceReader,
  InquiryVerification,
} from '#lambdas/domain/kyc/verification-evidence.ts';
import { getSecret } from './secrets.ts';

// A small typed client for the Persona API subset the backend uses. Plain fetch: the base URL is
// config (`https://withpersona.com` in AWS, the local emulator otherwise), the API key comes from
// Secrets Manager, every POST carries an Idempotency-Key (Persona keeps them 24 h), and every call
// has a timeout that fits inside the Lambda's own.

export const personaApiVersion = '2023-01-05';
const defaultTimeoutMs = 5000;

export class PersonaApiError extends InquiryProviderError {
  constructor(
    status: number,
    readonly operation: string,
    detail: string,
  ) {
    super(status, `Persona ${operation} failed with ${status}: ${detail}`);
    this.name = 'PersonaApiError';
  }

  /** 429 and 5xx: trying again later may work. */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

const inquiryDocument = z.looseObject({
  data: z.looseObject({
    type: z.literal('inquiry'),
    id: z.string(),
    attributes: z.looseObject({
      status: z.string(),
      'reference-id': z.optional(z.nullable(z.string())),
      'completed-at': z.optional(z.nullable(z.string())),
      'failed-at': z.optional(z.nullable(z.string())),
      'marked-for-review-at': z.optional(z.nullable(z.string())),
      'decisioned-at': z.optional(z.nullable(z.string())),
      'redacted-at': z.optional(z.nullable(z.string())),
    }),
  }),
  meta: z.optional(z.nullable(z.looseObject({ 'session-token': z.optional(z.nullable(z.string())) }))),
  /** Related objects (`?include=`), e.g. the inquiry's verifications. */
  included: z.optional(
    z.nullable(
      z.array(
        z.looseObject({
          type: z.string(),
          id: z.string(),
          attributes: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
        }),
      ),
    ),
  ),
});
type InquiryDocument = z.infer<typeof inquiryDocument>;

export interface PersonaClientOptions {
  baseUrl: string;
  apiKey: () => Promise<string>;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class PersonaClient implements InquiryProvider, InquiryReader, InquiryEvidenceReader {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PersonaClientOptions) {
    this.baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.fetch = options.fetch ?? fetch;
  }

  async createInquiry(input: {
    referenceId: string;
    templateId: string;
    idempotencyKey: string;
  }): Promise<Inquiry> {
    const document = await this.request('create inquiry', 'POST', '/api/v1/inquiries', input.idempotencyKey, {
      data: {
        attributes: { 'inquiry-template-id': input.templateId, 'reference-id': input.referenceId },
      },
    });
    return toInquiry(document);
  }

  async getInquiry(inquiryId: string): Promise<Inquiry> {
    return toInquiry(
      await this.request('get inquiry', 'GET', `/api/v1/inquiries/${encodeURIComponent(inquiryId)}`),
    );
  }

  /** The inquiry with the time of each step (the reconciliation's view, ADR 0038). */
  async getInquirySnapshot(inquiryId: string): Promise<InquirySnapshot> {
    const document = await this.request(
      'get inquiry',
      'GET',
      `/api/v1/inquiries/${encodeURIComponent(inquiryId)}`,
    );
    const attributes = document.data.attributes;
    return {
      ...toInquiry(document),
      completedAt: attributes['completed-at'] ?? null,
      failedAt: attributes['failed-at'] ?? null,
      markedForReviewAt: attributes['marked-for-review-at'] ?? null,
      decisionedAt: attributes['decisioned-at'] ?? null,
    };
  }

  /**
   * The inquiry with its verifications and their checks (ADR 0082): Persona's
   * `GET /api/v1/inquiries/{id}?include=verifications` puts each verification in `included`
   * (`type` `verification/<kind>`, `attributes.status`, `attributes.checks` of
   * `{ name, status, reasons }`). Objects of other types are left out; a check without a name is
   * skipped rather than guessed.
   */
  async getInquiryEvidence(inquiryId: string): Promise<InquiryEvidence> {
    const document = await this.request(
      'get inquiry evidence',
      'GET',
      `/api/v1/inquiries/${encodeURIComponent(inquiryId)}?include=verifications`,
    );
    const verifications: InquiryVerification[] = [];
    for (const included of document.included ?? []) {
      if (!included.type.startsWith('verification/')) continue;
      const attributes = included.attributes ?? {};
      const checks = Array.isArray(attributes.checks) ? attributes.checks : [];
      verifications.push({
        id: included.id,
        type: included.type,
        status: typeof attributes.status === 'string' ? attributes.status : 'unknown',
        checks: checks.flatMap((check: unknown) => {
          if (typeof check !== 'object' || check === null) return [];
          const { name, status, reasons } = check as Record<string, unknown>;
          if (typeof name !== 'string' || typeof status !== 'string') return [];
          return [
            {
              name,
              status,
              reasons: Array.isArray(reasons)
                ? reasons.filter((r): r is string => typeof r === 'string')
                : [],
            },
          ];
        }),
      });
    }
    return {
      inquiryId: document.data.id,
      status: document.data.attributes.status,
      redactedAt: document.data.attributes['redacted-at'] ?? null,
      verifications,
    };
  }

  /** A new session token for the inquiry (the previous one stops working). */
  async resumeInquiry(inquiryId: string, idempotencyKey: string = randomUUID()): Promise<string> {
    const document = await this.request(
      'resume inquiry',
      'POST',
      `/api/v1/inquiries/${encodeURIComponent(inquiryId)}/resume`,
      idempotencyKey,
    );
    const token = document.meta?.['session-token'];
    if (!token) throw new PersonaApiError(502, 'resume inquiry', 'no session token in the answer');
    return token;
  }

  /**
   * Expires the inquiry and all its sessions, cancelling its pending verifications (a withdrawn
   * consent, ADR 0075). Persona's `POST /api/v1/inquiries/{id}/expire`; safe to repeat.
   */
  async expireInquiry(inquiryId: string): Promise<Inquiry> {
    return toInquiry(
      await this.request(
        'expire inquiry',
        'POST',
        `/api/v1/inquiries/${encodeURIComponent(inquiryId)}/expire`,
        `expire-${inquiryId}`,
      ),
    );
  }

  /** Erases the inquiry's personal data at Persona (data-erasure requests). Safe to repeat. */
  async redactInquiry(inquiryId: string): Promise<Inquiry> {
    return toInquiry(
      await this.request(
        'redact inquiry',
        'POST',
        `/api/v1/inquiries/${encodeURIComponent(inquiryId)}/redact`,
        `redact-${inquiryId}`,
      ),
    );
  }

  private async request(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    idempotencyKey?: string,
    body?: unknown,
  ): Promise<InquiryDocument> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${await this.options.apiKey()}`,
      'persona-version': personaApiVersion,
      'key-inflection': 'kebab',
    };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey ?? randomUUID();
    }
    let response: Response;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new PersonaApiError(504, operation, detail);
    }
    const text = await response.text();
    if (!response.ok) throw new PersonaApiError(response.status, operation, errorTitle(text));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PersonaApiError(502, operation, 'the answer is not JSON');
    }
    const parsed = inquiryDocument.safeParse(json);
    if (!parsed.success) throw new PersonaApiError(502, operation, 'unexpected answer shape');
    return parsed.data;
  }
}

function toInquiry(document: InquiryDocument): Inquiry {
  return {
    inquiryId: document.data.id,
    status: document.data.attributes.status,
    referenceId: document.data.attributes['reference-id'] ?? null,
    sessionToken: document.meta?.['session-token'] ?? null,
    redactedAt: document.data.attributes['redacted-at'] ?? null,
  };
}

/** Persona's JSON:API errors carry a title; never echo the whole body (it may hold personal data). */
function errorTitle(text: string): string {
  try {
    const json = JSON.parse(text) as { errors?: { title?: unknown }[] };
    const title = json.errors?.[0]?.title;
    return typeof title === 'string' ? title.slice(0, 200) : 'error';
  } catch {
    return 'error';
  }
}

/** One client per container; the key is read (and cached) through Secrets Manager. */
export function createPersonaClient(options: Partial<PersonaClientOptions> = {}): PersonaClient {
  return new PersonaClient({
    baseUrl: options.baseUrl ?? requireEnv('personaApiUrl'),
    apiKey: options.apiKey ?? (() => getSecret('personaApiKey')),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
