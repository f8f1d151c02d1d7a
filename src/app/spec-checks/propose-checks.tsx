import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { useState } from 'react';
import type { Service } from '../../contract/catalogue.js';
import type { PublishedPage } from '../../contract/pages.js';
import type { SpecProbe } from '../../contract/spec-checks.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { errorMessage, TextField } from '../components/form.js';
import { Spinner } from '../components/status-screens.js';
import { createHealthCheck } from '../health/index.js';
import { useSnackbar } from '../components/snackbars.js';
import { getSpecProbesQueryOptions } from './spec-checks-api.js';

const NAME_MAX = 120;

/** "GET /items/{id}" */
const routeOf = (probe: Pick<SpecProbe, 'method' | 'path'>) => `${probe.method} ${probe.path}`;

/**
 * The check a proposal becomes: the ordinary create, linked to the spec's operation (docs/decisions.md#spec-checks).
 */
export function checkFromProbe(probe: SpecProbe, page: string, authorization: string) {
  const headers: Record<string, string> = { ...probe.headers };
  if (probe.needs_auth && authorization.trim()) headers['authorization'] = authorization.trim();
  const name = (probe.summary ? `${probe.summary} (${routeOf(probe)})` : routeOf(probe)).slice(0, NAME_MAX);
  const sendsMore = probe.method !== 'GET' || Object.keys(headers).length > 0;
  return {
    name,
    kind: 'http' as const,
    endpoint: probe.url ?? '',
    ...(sendsMore ? { request: { method: probe.method as 'GET' | 'HEAD', headers } } : {}),
    assertions: probe.assertions,
    spec: { page, operation_id: probe.operation_id },
  };
}

/**
 * "Propose checks from {version}" (issue 30, editors): every operation of the published spec that can be probed
 * safely, as a check with its URL and the assertions the spec gives; the editor picks which to create (none is
 * picked at first). Operations that need authentication send the header given here, kept in the check's
 * settings, never in the spec.
 */
export function ProposeChecks({ service, page }: { service: Service; page: PublishedPage }) {
  const [open, setOpen] = useState(false);
  if (!service.permissions.edit) return null;
  return (
    <div>
      <Button
        type="button"
        label={`Propose checks from ${page.title}`}
        icon="pi pi-check-square"
        outlined
        onClick={() => setOpen(true)}
      />
      {open && <ProposeDialog service={service} page={page} onClose={() => setOpen(false)} />}
    </div>
  );
}

function ProposeDialog({ service, page, onClose }: { service: Service; page: PublishedPage; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [server, setServer] = useState('');
  const [serverDraft, setServerDraft] = useState('');
  const [authorization, setAuthorization] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const probes = useQuery(getSpecProbesQueryOptions(api, service.handle, page.handle, server));
  const answer = probes.data;
  const chosen = (answer?.probes ?? []).filter((probe) => picked.has(probe.operation_id) && probe.url);

  const create = useMutation({
    mutationFn: async () => {
      // One at a time: a refusal stops here and names the check, the ones before it stay created.
      for (const probe of chosen)
        await createHealthCheck(api, service.handle, checkFromProbe(probe, page.handle, authorization));
      return chosen.length;
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.serviceHealthChecks(service.handle) }),
        queryClient.invalidateQueries({ queryKey: ['service', service.handle, 'spec-probes'] }),
      ]),
    onSuccess: (count) => {
      enqueue(count === 1 ? '1 check created' : `${count} checks created`);
      onClose();
    },
  });

  const toggle = (operationId: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(operationId);
      else next.delete(operationId);
      return next;
    });
  const needsAuth = chosen.some((probe) => probe.needs_auth);

  return (
    <Dialog
      header={`Propose checks from ${page.title}`}
      visible
      onHide={onClose}
      style={{ width: '48rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={create.isPending}
          submitLabel={chosen.length === 1 ? 'Create 1 check' : `Create ${chosen.length} checks`}
          disabled={chosen.length === 0}
          onSubmit={() => create.mutate()}
        />
      }
    >
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">
          Each operation that can be probed safely (GET or HEAD, no request body, every required parameter with an
          example) becomes an HTTP check that asserts the documented status, content type and response schema.
        </p>
        <form
          className="flex flex-wrap align-items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setServer(serverDraft.trim());
          }}
        >
          <div className="flex-1" style={{ minWidth: '14rem' }}>
            <TextField
              id="spec-probe-server"
              label="Server URL"
              value={serverDraft}
              onChange={setServerDraft}
              hint={answer?.servers.length ? `The spec's: ${answer.servers.join(', ')}` : 'The spec names no server'}
            />
          </div>
          <Button type="submit" label="Use server" outlined />
        </form>
        <TextField
          id="spec-probe-authorization"
          label="Authorization header"
          value={authorization}
          onChange={setAuthorization}
          hint="Sent by the checks of operations that need authentication; kept in the check's settings, never in the spec."
        />
        {probes.isPending ? (
          <Spinner label="Reading the spec" />
        ) : probes.error ? (
          <small className="p-error">{errorMessage(probes.error, 'The spec could not be read')}</small>
        ) : (
          <ul className="list-none m-0 p-0 flex flex-column gap-2" aria-label="Operations">
            {answer!.probes.map((probe) => (
              <ProbeRow
                key={probe.operation_id}
                probe={probe}
                picked={picked.has(probe.operation_id)}
                onToggle={(on) => toggle(probe.operation_id, on)}
              />
            ))}
          </ul>
        )}
        {answer && answer.flagged.length > 0 && (
          <div role="status" className="p-2 border-round bg-yellow-50 text-900">
            This version no longer has the operation of:{' '}
            {answer.flagged.map((check) => `${check.name} (${check.operation_id})`).join(', ')}.
          </div>
        )}
        {needsAuth && !authorization.trim() && (
          <small className="text-700">Some chosen operations need authentication: give the header above.</small>
        )}
        {create.error && (
          <small className="p-error">{errorMessage(create.error, 'The checks could not be created')}</small>
        )}
      </div>
    </Dialog>
  );
}

function ProbeRow({ probe, picked, onToggle }: { probe: SpecProbe; picked: boolean; onToggle: (on: boolean) => void }) {
  const id = `spec-probe-${probe.operation_id.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const blocked = probe.reason_skipped ?? (probe.url ? null : 'No URL');
  return (
    <li className="flex align-items-start gap-2 p-2 border-round surface-50">
      <Checkbox
        inputId={id}
        checked={picked}
        disabled={Boolean(blocked)}
        onChange={(event) => onToggle(Boolean(event.checked))}
        aria-describedby={`${id}-detail`}
      />
      <div className="flex flex-column gap-1" style={{ minWidth: 0 }}>
        <label htmlFor={id} className="font-semibold" style={{ overflowWrap: 'anywhere' }}>
          <code>{routeOf(probe)}</code>
          {probe.summary ? ` ${probe.summary}` : ''}
        </label>
        <small id={`${id}-detail`} className="text-600" style={{ overflowWrap: 'anywhere' }}>
          {blocked
            ? blocked
            : [
                probe.url,
                probe.assertions_text.replace(/\n/g, ' · '),
                probe.needs_auth ? 'needs authentication' : null,
                probe.checks.length > 0 ? `checked by ${probe.checks.map((check) => check.name).join(', ')}` : null,
              ]
                .filter(Boolean)
                .join(' · ')}
        </small>
      </div>
    </li>
  );
}
