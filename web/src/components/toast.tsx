import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { site } from '#web/content/site.ts';

export type ToastTone = 'success' | 'error' | 'info';

export interface ToastOptions {
  /** How long the toast stays; 5000 ms unless said otherwise. */
  durationMs?: number;
  /** A second line under the message, which then reads as the toast's title. */
  description?: string;
}

export interface ToastApi {
  success(message: string, options?: ToastOptions): void;
  error(message: string, options?: ToastOptions): void;
  info(message: string, options?: ToastOptions): void;
  dismiss(id: number): void;
}

export const defaultToastDurationMs = 5000;

interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
  description?: string;
  durationMs: number;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() needs a <ToastProvider> (the layout renders one)');
  return api;
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
            message,
            description: options.description,
            durationMs: options.durationMs ?? defaultToastDurationMs,
          },
        ]);
      };
    return { success: show('success'), error: show('error'), info: show('info'), dismiss };
  }, [dismiss]);

  return (
    <ToastContext.Provider value={api}>
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
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDismiss]);

  return (
    <div className={`toast toast--${toast.tone}`}>
      <p className="toast__message">
        {toast.description ? <strong>{toast.message}</strong> : toast.message}
        {toast.description && <span className="toast__description"> {toast.description}</span>}
      </p>
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
