import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState, type FormEvent } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { isSloTarget, SLO_WINDOW_DAYS, type SloWindowDays } from '../../domain/slo.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { errorMessage, TextField } from '../components/form.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { ManagedMark } from '../components/managed-mark.js';
import { useSnackbar } from '../components/snackbars.js';
import { deleteSlo, getSloQueryOptions, setSlo } from './slo-api.js';

const WINDOWS = SLO_WINDOW_DAYS.map((days) => ({ label: `${days} days`, value: String(days) }));

/** Settings (editors): the service's SLO target and window, saved or removed. */
export function SloSettingCard({ service }: { service: Service }) {
  const api = useApi();
  const { data: slo, isPending } = useQuery(getSloQueryOptions(api, service.handle));
  if (isPending) return null;
  // Set by the service's catalogue file (beacon.io/slo): shown, changed only there.
  if (service.managed_by?.settings.includes('slo')) {
    return (
      <Card title={<h2 className="text-xl font-semibold m-0">SLO</h2>}>
        <p className="m-0">{slo ? `${slo.target}% over ${slo.window_days} days` : 'No SLO'}</p>
        <ManagedMark managedBy={service.managed_by} what="Its SLO" />
      </Card>
    );
  }
  return <SloForm key={slo ? `${slo.target}/${slo.window_days}` : 'none'} service={service} saved={slo ?? null} />;
}

function SloForm({
  service,
  saved,
}: {
  service: Service;
  saved: { target: number; window_days: SloWindowDays } | null;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [target, setTarget] = useState(saved ? String(saved.target) : '99.9');
  const [windowDays, setWindowDays] = useState(String(saved?.window_days ?? 30));
  const [submitted, setSubmitted] = useState(false);
  const parsed = Number(target.trim());
  const targetError =
    target.trim() !== '' && isSloTarget(parsed) ? null : 'Enter a percentage above 0 and below 100, e.g. 99.9';
  const changed = !saved || saved.target !== parsed || String(saved.window_days) !== windowDays;
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.serviceSlo(service.handle) });

  const save = useMutation({
    mutationFn: () => setSlo(api, service.handle, { target: parsed, window_days: Number(windowDays) as SloWindowDays }),
    onSuccess: async () => {
      await refresh();
      enqueue('SLO Saved');
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSlo(api, service.handle),
    onSuccess: async () => {
      await refresh();
      enqueue('SLO Removed');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (targetError || !changed || save.isPending) return;
    save.mutate();
  }

  const failure = save.error ?? remove.error;
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">SLO</h2>}>
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate aria-label="SLO">
        <p className="m-0 text-700">
          The availability the service aims for, measured from its health over a rolling window. Declared maintenance is
          left out.
        </p>
        <div className="grid">
          <div className="col-12 md:col-6">
            <TextField
              id="slo-target"
              label="Target (%)"
              value={target}
              onChange={setTarget}
              error={submitted ? targetError : null}
            />
          </div>
          <div className="col-12 md:col-6 flex flex-column gap-1">
            <LabelledSelect
              id="slo-window"
              label="Window"
              value={windowDays}
              options={WINDOWS}
              onChange={setWindowDays}
            />
          </div>
        </div>
        {failure && <small className="p-error">{errorMessage(failure, 'The SLO could not be saved')}</small>}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" label="Save SLO" loading={save.isPending} disabled={!changed} />
          {saved && (
            <Button
              type="button"
              label="Remove SLO"
              severity="danger"
              outlined
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            />
          )}
        </div>
      </form>
    </Card>
  );
}
