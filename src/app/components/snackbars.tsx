import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Snackbar notifications (spec: key generated, success or error variant, at most 3 at once, bottom centre). */
export interface Snackbar {
  key: string;
  message: string;
  options: { variant: 'success' | 'error' };
  dismissed: boolean;
}

export const MAX_SNACKBARS = 3;
const AUTO_HIDE_MS = 5000;

interface Snackbars {
  enqueue(message: string, variant?: 'success' | 'error'): void;
  close(key?: string): void;
}

const SnackbarContext = createContext<Snackbars | null>(null);
let sequence = 0;

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Snackbar[]>([]);

  const close = useCallback((key?: string) => {
    setItems((current) =>
      current.map((item) => (key === undefined || item.key === key ? { ...item, dismissed: true } : item)),
    );
    // Removal happens once the snackbar has left.
    setTimeout(() => setItems((current) => current.filter((item) => !item.dismissed)), 200);
  }, []);

  const enqueue = useCallback(
    (message: string, variant: 'success' | 'error' = 'success') => {
      const key = `${Date.now()}-${++sequence}`;
      setItems((current) => [...current, { key, message, options: { variant }, dismissed: false }]);
      setTimeout(() => close(key), AUTO_HIDE_MS);
    },
    [close],
  );

  const value = useMemo(() => ({ enqueue, close }), [enqueue, close]);
  const visible = items.filter((item) => !item.dismissed).slice(0, MAX_SNACKBARS);
  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <div className="beacon-snackbars" role="status" aria-live="polite">
        {visible.map((item) => (
          <div key={item.key} className={`beacon-snackbar beacon-snackbar-${item.options.variant}`}>
            <span>{item.message}</span>
            <button
              type="button"
              className="beacon-snackbar-close"
              aria-label="Dismiss"
              onClick={() => close(item.key)}
            >
              <i className="pi pi-times" aria-hidden="true" />
            </button>
          </div>
        ))}
      </div>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): Snackbars {
  const value = useContext(SnackbarContext);
  if (!value) throw new Error('useSnackbar outside SnackbarProvider');
  return value;
}
