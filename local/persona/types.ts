// Public types of the local Persona emulator (re-exported by index.ts).

export interface PersonaOptions {
  port: number;
  /** Bearer key the API requires (e.g. 'persona_sandbox_local_...'). */
  apiKey: string;
  /** The one inquiry template the emulator knows ('itmpl_...'). */
  templateId: string;
  /** 'env_...' */
  environmentId: string;
  /** Default webhook subscriber (receives every event); secret like 'wbhsec_...'. */
  webhook: { url: string; secret: string };
  /**
   * Delays between delivery attempts (7 entries = 7 retries, 8 attempts in all).
   * Default: Persona's schedule (3 s, 64 s, 729 s, 4096 s, 15625 s, 46656 s, 117649 s) divided by 100.
   */
  retryDelaysMs?: number[];
  /** A delivery not answered within this time counts as failed (default 5000, like Persona). */
  deliveryTimeoutMs?: number;
  /** Optional directory for JSON persistence of inquiries across restarts. */
  dataDir?: string;
  /** Host name to bind; default 127.0.0.1. */
  host?: string;
  /** Log one line per delivery outcome to stdout (default true). */
  log?: boolean;
}

export interface WebhookDelivery {
  eventId: string;
  eventName: string;
  inquiryId: string;
  webhookId: string;
  url: string;
  /** HTTP status of the answer, or null when the request failed or timed out. */
  status: number | null;
  ok: boolean;
  error?: string;
  /** 1-based attempt number. */
  attempt: number;
  /** ISO time the attempt was made. */
  at: string;
}

export interface RunningPersona {
  url: string;
  /** Stops the server and cancels pending webhook retries. */
  close(): Promise<void>;
  /** Every delivery attempt made so far (oldest first). */
  deliveries(): WebhookDelivery[];
}

export type Outcome = 'approve' | 'decline' | 'review' | 'fail';
