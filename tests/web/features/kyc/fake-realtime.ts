// A fake browser WebSocket for the push channel's tests: the test plays AppSync Events' side of the
// protocol (ack, subscribe_success, ka, data) and reads what the client sent.

export class FakeSocket {
  static instances: FakeSocket[] = [];
  static reset() {
    FakeSocket.instances = [];
  }
  static get last(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.instances.push(this);
  }

  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }

  /** The `header-` subprotocol, decoded. */
  header(): Record<string, unknown> {
    const protocol = this.protocols.find((entry) => entry.startsWith('header-')) ?? '';
    return JSON.parse(Buffer.from(protocol.slice('header-'.length), 'base64url').toString('utf8'));
  }
  subscribeMessage() {
    return this.sent.find((message) => message.type === 'subscribe');
  }

  // The server's side.
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: object) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  /** open -> connection_init -> connection_ack -> subscribe -> subscribe_success. */
  accept(connectionTimeoutMs = 300_000) {
    this.open();
    this.receive({ type: 'connection_ack', connectionTimeoutMs });
    this.receive({ type: 'subscribe_success', id: this.subscribeMessage()?.id });
  }
  push(event: unknown) {
    this.receive({ type: 'data', id: this.subscribeMessage()?.id, event: JSON.stringify(event) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close'));
  }
}
