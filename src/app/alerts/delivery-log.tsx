import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Tag } from 'primereact/tag';
import { Link } from 'react-router-dom';
import type { AlertChannel, AlertDelivery } from '../../contract/alerts.js';
import type { AlertAction } from '../../domain/alerts.js';
import { keys } from '../api/query-keys.js';
import { errorMessage } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { Spinner } from '../components/status-screens.js';
import { useOnline } from '../components/use-online.js';
import { useApi } from '../session/use-api.js';
import { alertPath, getDeliveriesQueryOptions, testChannel } from './alerts-api.js';
import { exactTime } from './alert-parts.js';

export const TEST_SENT = 'Test sent';
export const TEST_FAILED = 'The test could not be sent';
/** While an attempt is still under way (queued or waiting to retry), the log is read again this often. */
export const DELIVERIES_POLL_MS = 2_000;

const ACTION_LABELS: Record<AlertAction, string> = {
  trigger: 'Opened',
  raise: 'Raised',
  acknowledge: 'Acknowledged',
  resolve: 'Resolved',
  test: 'Test',
};

const STATUS_TAGS: Record<AlertDelivery['status'], { label: string; severity: 'success' | 'danger' | 'warning' }> = {
  sent: { label: 'Sent', severity: 'success' },
  failed: { label: 'Failed', severity: 'danger' },
  retrying: { label: 'Retrying', severity: 'warning' },
};

function DeliveryRow({ delivery }: { delivery: AlertDelivery }) {
  const status = STATUS_TAGS[delivery.status];
  return (
    <li className="beacon-alert-delivery-row">
      <time dateTime={delivery.at} className="text-sm">
        {exactTime(delivery.at)}
      </time>
      <span className="font-semibold">
        {delivery.alert ? (
          <Link to={alertPath(delivery.alert)}>{ACTION_LABELS[delivery.action]}</Link>
        ) : (
          ACTION_LABELS[delivery.action]
        )}
      </span>
      <Tag value={status.label} severity={status.severity} />
      {delivery.code !== null && <span className="text-sm text-700">HTTP {delivery.code}</span>}
      {delivery.error && <span className="text-sm text-700 beacon-alert-text w-full">{delivery.error}</span>}
    </li>
  );
}

/**
 * The channel's last attempts, newest first, and "Send test": a test alert sent at once, whose attempt then shows here
 * (the log is read again while an attempt is under way).
 */
export function DeliveryLogCard({ channel }: { channel: AlertChannel }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const online = useOnline();
  const log = useQuery({
    ...getDeliveriesQueryOptions(api, channel.id),
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'retrying') ? DELIVERIES_POLL_MS : false,
  });
  const test = useMutation({
    mutationFn: () => testChannel(api, channel.id),
    onSuccess: () => {
      enqueue(TEST_SENT);
      void queryClient.invalidateQueries({ queryKey: keys.alertChannelDeliveries(channel.id) });
    },
    onError: (error) => enqueue(errorMessage(error, TEST_FAILED), 'error'),
  });
  const deliveries = log.data ?? [];
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Delivery log</h2>}>
      <div className="flex flex-column gap-3">
        <div className="flex flex-wrap align-items-center gap-3">
          <p className="m-0 text-700 flex-1">The last 100 attempts to tell this channel, newest first.</p>
          <Button
            type="button"
            label="Send test"
            icon="pi pi-send"
            outlined
            loading={test.isPending}
            disabled={test.isPending || !online}
            onClick={() => test.mutate()}
          />
        </div>
        {log.isPending ? (
          <Spinner label="Loading deliveries" />
        ) : log.data === undefined ? (
          <p className="m-0 p-error" role="alert">
            The delivery log could not be loaded
          </p>
        ) : deliveries.length === 0 ? (
          <p className="m-0 text-700">No attempts yet. Send a test to try the channel.</p>
        ) : (
          <ul className="list-none p-0 m-0" aria-label="Deliveries">
            {deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
