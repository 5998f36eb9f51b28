import type { InquiryError, setupEvents, setupIframe } from 'persona';
import { buildLocale } from '#web/config/locale.ts';

// Opens a Persona inquiry in our own native <dialog>, with the SDK's documented building blocks
// (`setupIframe`, `setupEvents`) instead of its `Client` class. `Client` appends two inline
// <style> elements (one holding a random container id, so no CSP hash can allow it) and sets a
// `style` attribute, which a strict `style-src 'self'` refuses (docs/decisions/0026-kyc-screens.md).
// The dialog gives what `Client`'s overlay does not: a focus trap, an inert page behind, Escape.
// The protocol is the SDK's own: it builds the frame URL and filters the frame's messages by origin
// and container id; we post `open` once the flow is ready, `exit` on Escape, `destroy` at the end.

/** The two SDK functions this needs (the screen passes the dynamically imported module). */
export interface PersonaSdk {
  setupIframe: typeof setupIframe;
  setupEvents: typeof setupEvents;
}

export interface InquiryHandlers {
  /** The flow is loaded and shown. */
  onReady(): void;
  /** The user finished the flow (Persona's `complete` or `fail`): a UI signal, never the decision. */
  onComplete(result: { inquiryId: string; status: string }): void;
  /** The user left before finishing (the widget's exit, or the dialog closed another way). */
  onCancel(): void;
  onError(error: InquiryError): void;
}

export interface InquiryOptions extends InquiryHandlers {
  inquiryId: string;
  sessionToken: string;
  environmentId: string;
  /** `host:port` of a Persona-compatible widget host (the local emulator); absent in AWS stages. */
  customHost: string | undefined;
  /** The accessible name of the frame. */
  frameTitle: string;
  /** The modal the flow is shown in, and the element inside it that receives the frame. */
  dialog: HTMLDialogElement;
  frameHost: HTMLElement;
}

export interface OpenInquiry {
  /** Tells the flow to tear down, stops listening and removes the frame (idempotent). */
  destroy(): void;
}

function newContainerId(): string {
  const random = new Uint32Array(2);
  crypto.getRandomValues(random);
  return `persona-widget-${Array.from(random, (part) => part.toString(36)).join('')}`;
}

export function openInquiry(sdk: PersonaSdk, options: InquiryOptions): OpenInquiry {
  const { dialog, frameHost } = options;
  const containerId = newContainerId();
  const frame = sdk.setupIframe(document.createElement('iframe'), containerId, 'embedded', {
    inquiryId: options.inquiryId,
    sessionToken: options.sessionToken,
    environmentId: options.environmentId,
    host: options.customHost,
    iframeTitle: options.frameTitle,
    // Persona's flow in the reader's language (ADR 0089).
    language: buildLocale,
  });
  // The SDK marks its frame as the modal itself (`role="dialog"`, `aria-modal`): here the
  // <dialog> around it is the modal, and a frame may not carry a dialog role.
  frame.removeAttribute('role');
  frame.removeAttribute('aria-modal');
  // Messages to the flow go to the frame's own origin, as `Client.open()` does.
  const frameOrigin = new URL(frame.src).origin;
  const post = (action: 'open' | 'exit' | 'destroy', metadata: Record<string, unknown> = {}) => {
    try {
      frame.contentWindow?.postMessage({ action, metadata }, frameOrigin);
    } catch {
      // A frame already taken out of the page has nobody left to tell.
    }
  };

  let settled = false;
  const settle = () => {
    settled = true;
    if (dialog.open) dialog.close();
  };

  const unsubscribe = sdk.setupEvents(containerId, {
    onLoad: null,
    onReady: () => {
      post('open');
      options.onReady();
    },
    onComplete: ({ inquiryId, status }) => {
      if (settled) return;
      settle();
      options.onComplete({ inquiryId, status });
    },
    onCancel: () => {
      if (settled) return;
      settle();
      options.onCancel();
    },
    onError: (error) => {
      if (settled) return;
      settle();
      options.onError(error);
    },
    onEvent: null,
    templateId: null,
    templateVersionId: null,
    host: options.customHost ?? null,
    eventsAllowlist: null,
  });

  // Escape asks the flow to exit (it may confirm first); the flow answers with `exit` -> onCancel.
  const onDialogCancel = (event: Event) => {
    event.preventDefault();
    post('exit', { force: false });
  };
  // Closed without the flow saying so (a browser lets a repeated Escape through): the user left.
  const onDialogClose = () => {
    if (settled) return;
    settled = true;
    options.onCancel();
  };
  dialog.addEventListener('cancel', onDialogCancel);
  dialog.addEventListener('close', onDialogClose);
  frameHost.append(frame);
  dialog.showModal();

  let destroyed = false;
  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      settled = true;
      post('destroy');
      unsubscribe();
      dialog.removeEventListener('cancel', onDialogCancel);
      dialog.removeEventListener('close', onDialogClose);
      if (dialog.open) dialog.close();
      frame.remove();
    },
  };
}
