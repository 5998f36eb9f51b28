import { createHash, createHmac } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { requireEnv } from '#lambdas/config.ts';
import type { RealtimePublisher } from '#lambdas/domain/kyc/push-decision.ts';

// AppSync Events' HTTP publish (`POST https://<http domain>/event`, `{channel, events: [JSON
// strings]}`), signed with SigV4 for the API's AWS_IAM publish mode by the SDK's own signer. A
// plain fetch rather than an SDK client: AppSync has no data-plane client for publishing, and the
// signer with node:crypto keeps the function small (ADR 0060).

const defaultTimeoutMs = 5000;

/** SHA-256 and HMAC-SHA256 from node:crypto, in the shape the signer takes. */
class NodeSha256 {
  private hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }
  private fresh() {
    if (this.secret === undefined) return createHash('sha256');
    const key =
      typeof this.secret === 'string'
        ? this.secret
        : ArrayBuffer.isView(this.secret)
          ? Buffer.from(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength)
          : Buffer.from(this.secret);
    return createHmac('sha256', key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(
      typeof data === 'string'
        ? data
        : ArrayBuffer.isView(data)
          ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          : Buffer.from(data),
    );
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export class AppSyncPublishError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`AppSync Events publish failed with ${status}: ${detail}`);
    this.name = 'AppSyncPublishError';
  }
}

export interface AppSyncEventsPublisherOptions {
  /** The API's HTTP domain (`<id>.appsync-api.<region>.amazonaws.com`), or a URL with scheme locally. */
  httpDomain: string;
  region: string;
  signer?: Pick<SignatureV4, 'sign'>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class AppSyncEventsPublisher implements RealtimePublisher {
  private readonly url: URL;
  private readonly signer: Pick<SignatureV4, 'sign'>;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: AppSyncEventsPublisherOptions) {
    const base = /^https?:\/\//.test(options.httpDomain)
      ? options.httpDomain
      : `https://${options.httpDomain}`;
    this.url = new URL('/event', base);
    this.signer =
      options.signer ??
      new SignatureV4({
        service: 'appsync',
        region: options.region,
        credentials: fromEnv(),
        sha256: NodeSha256,
      });
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  }

  async publish(channel: string, events: readonly unknown[]): Promise<void> {
    const body = JSON.stringify({ channel, events: events.map((event) => JSON.stringify(event)) });
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      ...(this.url.port ? { port: Number(this.url.port) } : {}),
      path: this.url.pathname,
      query: {},
      headers: { host: this.url.host, 'content-type': 'application/json' },
      body,
    });
    const answer = await this.fetch(this.url, {
      method: 'POST',
      headers: signed.headers as Record<string, string>,
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await answer.text();
    if (!answer.ok) throw new AppSyncPublishError(answer.status, text.slice(0, 500));
    // A 200 can still refuse some events (`failed`): the bus retries the whole push.
    const result = JSON.parse(text) as { failed?: unknown[] };
    if (Array.isArray(result.failed) && result.failed.length > 0)
      throw new AppSyncPublishError(answer.status, `${result.failed.length} event(s) failed`);
  }
}

export function createRealtimePublisher(): RealtimePublisher {
  return new AppSyncEventsPublisher({
    httpDomain: requireEnv('realtimeHttpDomain'),
    region: requireEnv('awsRegion'),
  });
}
