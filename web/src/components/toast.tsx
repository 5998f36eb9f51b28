import {
  type FocusEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { site } from '#web/content/site.ts';
import { requiredContext } from '#web/lib/required-context.ts';

export type ToastTone = 'success' | 'error' | 'info';

export interface ToastOptions {
  /** How long the toast stays; 5000 ms unless said otherwise; `null`: until dismissed. */
  durationMs?: number | null;
  /** A short heading above the message (e.g. "Registration Failed"). */
  title?: string;
  /** A button beside the message; pressing it runs `onAction` and dismisses the toast. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  onAction(): void;
}

/** Each shows a toast and returns its id (for `dismiss`). */
export interface ToastApi {
  success(message: string, options?: ToastOptions): number;
  error(message: string, options?: ToastOptions): number;
  info(message: string, options?: ToastOptions): number;
  dismiss(id: number): void;
}

export const defaultToastDurationMs = 5000;

interface Toast {
  id: number;
  tone: ToastTone;
  title: string | undefined;
  message: string;
  durationMs: number | null;
  action: ToastAction | undefined;
}

const [ToastContextProvider, useToastApi] = requiredContext<ToastApi>('useToast', 'ToastProvider');

export function useToast(): ToastApi {
  return useToastApi();
}

/**
 * A polite live region (an assertive one for errors), fixed to the viewport: a toast never moves the page. The region exists
 * from the first render so screen readers announce what is added to it.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const api = useMemo<ToastApi>(() => {
    const show =
      (tone: ToastTone) =>
      (message: string, options: ToastOptions = {}) => {
        const id = nextId.current++;
        setToasts((current) => [
          ...current,
          {
            id,
            tone,
            title: options.title,
            message,
            durationMs: options.durationMs === undefined ? defaultToastDurationMs : options.durationMs,
            action: options.action,
          },
        ]);
        return id;
      };
    return { success: show('success'), error: show('error'), info: show('info'), dismiss };
  }, [dismiss]);

  return (
    <ToastContextProvider value={api}>
      {children}
      <div className="toast-region">
        <div role="status" aria-live="polite" aria-label={site.toast.regionLabel} className="toast-list">
          {toasts
            .filter((toast) => toast.tone !== 'error')
            .map((toast) => (
              <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
        <div role="alert" aria-label={site.toast.errorRegionLabel} className="toast-list">
          {toasts
            .filter((toast) => toast.tone === 'error')
            .map((toast) => (
              <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
      </div>
    </ToastContextProvider>
  );
}

function subscribeToVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

function useDocumentHidden(): boolean {
  return useSyncExternalStore(
    subscribeToVisibility,
    () => document.visibilityState === 'hidden',
    () => false,
  );
}

/**
 * A toast's time runs only while someone can read it undisturbed (WCAG 2.2.1): it stops while the
 * pointer is over it, while focus is inside it (its close button), and while the tab is hidden,
 * and the time left resumes afterwards.
 */
function useToastTimer(durationMs: number | null, paused: boolean, onElapsed: () => void): void {
  const remaining = useRef(durationMs);
  const latest = useRef(onElapsed);
  latest.current = onElapsed;

  useEffect(() => {
    if (paused || remaining.current === null) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => latest.current(), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, (remaining.current ?? 0) - (Date.now() - startedAt));
    };
  }, [paused]);
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const hidden = useDocumentHidden();
  useToastTimer(toast.durationMs, hovered || focused || hidden, () => onDismiss(toast.id));

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // Focus moving between elements inside the toast keeps it paused.
    if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: these handlers only pause the timer (WCAG 2.2.1); the close button is the control.
    <div
      className={`toast toast--${toast.tone}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      <div className="toast__body">
        {toast.title && <p className="toast__title">{toast.title}</p>}
        <p className="toast__message">{toast.message}</p>
        {toast.action && (
          <button
            type="button"
            className="button toast__action"
            onClick={() => {
              onDismiss(toast.id);
              toast.action?.onAction();
            }}
          >
            {toast.action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        className="toast__close"
        aria-label={site.toast.dismiss}
        onClick={() => onDismiss(toast.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
