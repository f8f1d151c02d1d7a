import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useEffect, useState } from 'react';
import type { HealthCheck } from '../../contract/health.js';
import { useAuth } from '../session/auth-context.js';
import { rotatePingUrl, storeHealthCheck } from './health-api.js';
import './health.css';

/** Spec catalogue 9: the Copy button says 'Copied' for this long. */
const COPIED_MS = 1000;

/**
 * A heartbeat's secret ping URL (editors only: the API gives it to them alone) with a Copy button and "Rotate
 * URL", which asks first: the old URL stops working at once, so a job still using it turns the check late.
 */
export function PingUrl({
  check,
  idPrefix,
  onRotated,
}: {
  check: Pick<HealthCheck, 'id' | 'name' | 'ping_url' | 'service'>;
  /** Keeps the field's id unique where a card and the dialog both show it. */
  idPrefix: string;
  onRotated?(saved: HealthCheck): void;
}) {
  const { api } = useAuth();
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const rotate = useMutation({
    mutationFn: () => rotatePingUrl(api, check.id),
    onSuccess: (saved) => {
      setConfirming(false);
      void storeHealthCheck(queryClient, check.service.handle, saved);
      onRotated?.(saved);
    },
  });
  if (!check.ping_url) return null;
  const id = `${idPrefix}-ping-url`;
  const url = check.ping_url;
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor={id}>Ping URL</label>
      <div className="flex flex-wrap gap-2 align-items-center">
        <InputText
          id={id}
          value={url}
          readOnly
          aria-describedby={`${id}-hint`}
          className="flex-1 beacon-monospace text-sm"
          style={{ minWidth: '12rem' }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          label={copied ? 'Copied' : 'Copy'}
          icon={copied ? 'pi pi-check' : 'pi pi-copy'}
          outlined
          aria-label={`${copied ? 'Copied' : 'Copy'} the ping URL of ${check.name}`}
          onClick={() => {
            void navigator.clipboard?.writeText(url).catch(() => undefined);
            setCopied(true);
          }}
        />
        {!confirming && (
          <Button
            type="button"
            label="Rotate URL"
            icon="pi pi-refresh"
            outlined
            severity="secondary"
            onClick={() => setConfirming(true)}
          />
        )}
      </div>
      <small id={`${id}-hint`} className="text-600">
        Your job sends GET or POST to it when it succeeds; add /fail when it fails, /start when it starts.
      </small>
      {confirming && (
        <div className="flex flex-wrap align-items-center gap-2" role="group" aria-label="Rotate the ping URL">
          <span className="text-sm">The old URL stops working at once.</span>
          <Button
            type="button"
            label="Rotate"
            size="small"
            severity="danger"
            loading={rotate.isPending}
            onClick={() => rotate.mutate()}
          />
          <Button
            type="button"
            label="Keep"
            size="small"
            text
            disabled={rotate.isPending}
            onClick={() => setConfirming(false)}
          />
          {rotate.isError && (
            <small className="p-error" role="alert">
              The URL could not be rotated. Try again.
            </small>
          )}
        </div>
      )}
    </div>
  );
}
