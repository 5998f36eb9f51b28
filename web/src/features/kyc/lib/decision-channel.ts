// The status screen's client for AppSync Events' WebSocket protocol (ADR 0060): connect with the
// access token in the `header-` subprotocol, `connection_init`, subscribe to the user's own
// channel, hand each `data` event to `onPush`; a closed, refused or silent link is reported down
// and retried after 1, 2, 5, then every 10 s. Loaded lazily, only while a verification is pending.

/** The product's realtime constants: `ka` expected within the ack's `connectionTimeoutMs`, else heartbeat + timeout. */
export const realtimeTiming = {
  heartbeatMs: 30_000,
  /** How long connecting, `connection_ack` and `subscribe_success` may each take. */
  timeoutMs: 10_000,
  backoffMs: [1000, 2000, 5000, 10_000],
} as const;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface DecisionChannelOptions {
  /** The realtime API's HTTP domain (the connection's `host`) and real-time domain; see WebConfig. */
  httpDomain: string;
  realtimeDomain: string;
  /** The user's channel path (`kycChannelPath`). */
  channel: string;
  /** The current access token (refreshed by the identity SDK when needed). */
  token(): Promise<string>;
  onPush(event: unknown): void;
  /** `true` once subscribed, `false` whenever the link is lost. */
  onState(up: boolean): void;
  timers?: Timers;
  WebSocket?: new (url: string, protocols: string[]) => WebSocket;
}

const withScheme = (domain: string, scheme: string) =>
  /^[a-z]+:\/\//.test(domain) ? domain : `${scheme}${domain}`;
const base64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/(?<!=)=+$/, '');

/** Opens the channel and keeps it open until the returned function is called. */
export function openDecisionChannel(options: DecisionChannelOptions): () => void {
  // Wrapped: a browser's clearTimeout called as a method of another object throws "Illegal invocation".
  const timers: Timers = options.timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const Socket = options.WebSocket ?? WebSocket;
  const host = new URL(withScheme(options.httpDomain, 'https://')).host;
  const url = `${withScheme(options.realtimeDomain, 'wss://')}/event/realtime`;
  let socket: WebSocket | undefined;
  let timer: unknown;
  let failures = 0;
  let up = false;
  let closed = false;
  let subscriptionId = '';

  const arm = (ms: number) => {
    timers.clearTimeout(timer);
    timer = timers.setTimeout(fail, ms);
  };

  function fail() {
    if (closed) return;
    timers.clearTimeout(timer);
    const old = socket;
    socket = undefined;
    if (old) {
      old.onopen = old.onmessage = old.onclose = old.onerror = null;
      old.close();
    }
    if (up) {
      up = false;
      options.onState(false);
    }
    const backoff = realtimeTiming.backoffMs;
    timer = timers.setTimeout(connect, backoff[Math.min(failures, backoff.length - 1)] ?? 10_000);
    failures += 1;
  }

  async function connect() {
    let token: string;
    try {
      token = await options.token();
    } catch {
      return fail();
    }
    if (closed) return;
    const authorization = { host, Authorization: token };
    const ws = new Socket(url, [
      'aws-appsync-event-ws',
      `header-${base64Url(JSON.stringify(authorization))}`,
    ]);
    socket = ws;
    let livenessMs: number = realtimeTiming.heartbeatMs + realtimeTiming.timeoutMs;
    arm(realtimeTiming.timeoutMs);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init' }));
    ws.onclose = ws.onerror = fail;
    ws.onmessage = (message) => {
      let data: { type?: string; id?: string; event?: unknown; connectionTimeoutMs?: unknown };
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      switch (data.type) {
        case 'connection_ack':
          if (typeof data.connectionTimeoutMs === 'number' && data.connectionTimeoutMs > 0)
            livenessMs = data.connectionTimeoutMs;
          subscriptionId = crypto.randomUUID();
          ws.send(
            JSON.stringify({
              type: 'subscribe',
              id: subscriptionId,
              channel: options.channel,
              authorization,
            }),
          );
          return arm(realtimeTiming.timeoutMs);
        case 'subscribe_success':
          if (data.id !== subscriptionId) return;
          failures = 0;
          up = true;
          options.onState(true);
          return arm(livenessMs);
        case 'ka':
          return up ? arm(livenessMs) : undefined;
        case 'data':
          if (data.id !== subscriptionId) return;
          arm(livenessMs);
          try {
            options.onPush(JSON.parse(String(data.event)));
          } catch {
            // Not JSON: not ours to read; the next poll or push tells the truth anyway.
          }
          return;
        case 'subscribe_error':
        case 'connection_error':
        case 'error':
          return fail();
      }
    };
  }

  connect();
  return () => {
    closed = true;
    timers.clearTimeout(timer);
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      if (socket.readyState === 1 && subscriptionId)
        socket.send(JSON.stringify({ type: 'unsubscribe', id: subscriptionId }));
      socket.close();
    }
  };
}
