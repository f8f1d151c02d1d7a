import { ProgressSpinner } from 'primereact/progressspinner';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSnackbar } from './snackbars.js';

export type CallbackOutcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * A full-screen return from an outside authorisation (Slack's OAuth redirect): in progress while `run` works,
 * then complete; the outcome is said as a toast and the browser goes on to `to`. `run` runs once.
 */
export function CallbackScreen({ title, run, to }: { title: string; run: () => Promise<CallbackOutcome>; to: string }) {
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const [state, setState] = useState<'in-progress' | 'complete'>('in-progress');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run()
      .catch((): CallbackOutcome => ({ ok: false, message: 'Something went wrong' }))
      .then((outcome) => {
        setState('complete');
        enqueue(outcome.message, outcome.ok ? 'success' : 'error');
        navigate(to, { replace: true });
      });
  }, [run, to, navigate, enqueue]);

  return (
    <main
      className="flex flex-column justify-content-center align-items-center min-h-screen gap-3 p-3"
      aria-busy={state === 'in-progress'}
    >
      <h1 className="text-2xl font-semibold m-0">{title}</h1>
      {state === 'in-progress' ? (
        <>
          <ProgressSpinner style={{ width: '3rem', height: '3rem' }} aria-label="In progress" />
          <p className="m-0 text-700" role="status">
            In progress…
          </p>
        </>
      ) : (
        <p className="m-0 text-700" role="status">
          Complete
        </p>
      )}
    </main>
  );
}

/** The OAuth code of Slack's redirect: the spec calls it `token`, Slack sends `code`. */
export function oauthCode(params: URLSearchParams): string | null {
  return params.get('token') || params.get('code') || null;
}
