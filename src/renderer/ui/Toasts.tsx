import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../shared/api/index.ts';
import { Icon } from './Icon.tsx';

export interface Toast {
  id: number;
  kind: 'info' | 'error' | 'success';
  title: string;
  message?: string;
  action?: { label: string; run: () => void };
  /** Milliseconds before it goes away by itself; 0 keeps it until dismissed. */
  timeoutMs?: number;
  /** A toast pushed with the key of one still shown takes its place (the newest word on one matter, not a pile). */
  key?: string;
}

interface ToastApi {
  push(toast: Omit<Toast, 'id'>): number;
  dismiss(id: number): void;
  /** Shows an error from a failed call: its message already says how to fix it. */
  error(title: string, e: unknown): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts outside ToastProvider');
  return api;
}

export function describeError(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = nextId.current++;
      setToasts((all) => [...(toast.key === undefined ? all : all.filter((t) => t.key !== toast.key)).slice(-4), { ...toast, id }]);
      const timeout = toast.timeoutMs ?? (toast.kind === 'error' ? 9000 : 5000);
      if (timeout > 0) setTimeout(() => dismiss(id), timeout);
      return id;
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(() => ({ push, dismiss, error: (title, e) => push({ kind: 'error', title, message: describeError(e) }) }), [push, dismiss]);
  return (
    <ToastContext value={api}>
      {children}
      <div className="toasts" role="region" aria-label="Notifications">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-testid="toast">
            <Icon name={t.kind === 'error' ? 'alert' : t.kind === 'success' ? 'check' : 'info'} />
            <div className="toast-body">
              <div className="toast-title">{t.title}</div>
              {t.message && <div className="toast-message">{t.message}</div>}
            </div>
            {t.action && (
              <button
                type="button"
                className="btn btn-ghost btn-small"
                onClick={() => {
                  t.action!.run();
                  dismiss(t.id);
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              <Icon name="x" />
            </button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}
