import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Dialog } from 'primereact/dialog';
import { Tag } from 'primereact/tag';
import { useEffect, useRef, useState } from 'react';
import type { StatusSubscriber } from '../../contract/status-pages.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';
import {
  forgetStatusSubscriber,
  getStatusSubscribersQueryOptions,
  removeStatusSubscriber,
} from './status-pages-api.js';

export const SUBSCRIBER_REMOVED = 'Subscriber was removed';
export const SUBSCRIBER_REMOVE_FAILED = 'There was an error while removing the subscriber';
export const SUBSCRIBERS_LOAD_FAILED = 'Subscribers could not be loaded';
export const SUBSCRIBERS_EMPTY =
  'No one has subscribed yet. Visitors subscribe from the page itself, by email or webhook.';
export const WAITING_FOR_CONFIRMATION = 'Waiting for confirmation';

const KIND_LABELS: Record<StatusSubscriber['kind'], string> = { email: 'Email', webhook: 'Webhook' };

/** What a subscriber is told about: the whole page or some components, and perhaps what those depend on. */
export function followsText({
  components,
  include_upstream,
}: Pick<StatusSubscriber, 'components' | 'include_upstream'>) {
  if (components === null) return include_upstream ? 'Whole page and what its components depend on' : 'Whole page';
  const handles = components.join(', ');
  if (!include_upstream) return handles;
  return `${handles} and what ${components.length === 1 ? 'it depends' : 'they depend'} on`;
}

/** Spec section 9: 'MMM D, YYYY', e.g. 'Mar 5, 2024'. */
const subscribedOn = (time: string) => dayjs(time).format('MMM D, YYYY');

const TITLE_ID = 'status-page-subscribers-title';
const removeButtonId = (subscriber: StatusSubscriber) => `status-subscriber-${subscriber.id}-remove`;

function SubscriberItem({ subscriber, onRemove }: { subscriber: StatusSubscriber; onRemove(): void }) {
  const waiting = subscriber.kind === 'email' && !subscriber.confirmed;
  return (
    <li className="flex flex-wrap align-items-center gap-3 py-3 border-bottom-1 surface-border">
      <div className="flex-1 flex flex-column gap-2 beacon-editor-grow">
        <div className="flex flex-wrap align-items-center gap-2">
          <span className="font-semibold beacon-editor-wrap">{subscriber.address}</span>
          {waiting && <Tag value={WAITING_FOR_CONFIRMATION} severity="warning" icon="pi pi-clock" />}
        </div>
        <dl className="beacon-status-admin-facts m-0">
          <div>
            <dt>Kind</dt>
            <dd>{KIND_LABELS[subscriber.kind]}</dd>
          </div>
          <div>
            <dt>Follows</dt>
            <dd>{followsText(subscriber)}</dd>
          </div>
          <div>
            <dt>Subscribed</dt>
            <dd>
              <time dateTime={subscriber.created_at}>{subscribedOn(subscriber.created_at)}</time>
            </dd>
          </div>
        </dl>
      </div>
      <Button
        type="button"
        id={removeButtonId(subscriber)}
        label="Remove"
        icon="pi pi-trash"
        severity="danger"
        outlined
        aria-label={`Remove ${subscriber.address}`}
        onClick={onRemove}
      />
    </li>
  );
}

/**
 * A saved status page's subscribers (docs/decisions.md#status-pages): emails and webhooks, confirmed or not, and what
 * each follows. Removing one asks first, as deleting the page does; the dialog stays open after a failure for another
 * try.
 */
export function StatusPageSubscribers({ handle }: { handle: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const list = useQuery(getStatusSubscribersQueryOptions(api, handle));
  const subscribers = list.data ?? [];
  // The subscriber asked about stays set while the dialog closes, so its text does not vanish mid-animation.
  const [target, setTarget] = useState<StatusSubscriber | null>(null);
  const [open, setOpen] = useState(false);
  // Where focus goes once a removed row is gone: the next row's Remove, else the previous one's, else the title.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const remove = useMutation({
    mutationFn: (subscriber: StatusSubscriber) => removeStatusSubscriber(api, handle, subscriber.id),
    onSuccess: (_nothing, subscriber) => {
      const index = subscribers.findIndex((other) => other.id === subscriber.id);
      const neighbour = subscribers[index + 1] ?? subscribers[index - 1];
      focusNext.current = neighbour ? removeButtonId(neighbour) : TITLE_ID;
      setOpen(false);
      enqueue(SUBSCRIBER_REMOVED);
      forgetStatusSubscriber(queryClient, handle, subscriber.id);
    },
    // The dialog stays open for another try or Cancel.
    onError: () => enqueue(SUBSCRIBER_REMOVE_FAILED, 'error'),
  });

  const title = (
    <h2 id={TITLE_ID} tabIndex={-1} className="text-xl font-semibold m-0">
      {list.data ? `Subscribers (${subscribers.length})` : 'Subscribers'}
    </h2>
  );
  return (
    <Card title={title}>
      {list.isPending ? (
        <Spinner label="Loading subscribers" />
      ) : list.data === undefined ? (
        <p className="m-0 p-error" role="alert">
          {SUBSCRIBERS_LOAD_FAILED}
        </p>
      ) : subscribers.length === 0 ? (
        <p className="m-0 text-600">{SUBSCRIBERS_EMPTY}</p>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-column" aria-label="Subscribers">
          {subscribers.map((subscriber) => (
            <SubscriberItem
              key={subscriber.id}
              subscriber={subscriber}
              onRemove={() => {
                setTarget(subscriber);
                setOpen(true);
              }}
            />
          ))}
        </ul>
      )}
      <Dialog
        header="Remove subscriber"
        visible={open}
        onHide={() => {
          if (!remove.isPending) setOpen(false);
        }}
        style={{ width: '28rem', maxWidth: '95vw' }}
        footer={
          <div className="flex justify-content-end gap-2">
            <Button type="button" label="Cancel" text onClick={() => setOpen(false)} disabled={remove.isPending} />
            <Button
              type="button"
              label="Remove"
              severity="danger"
              loading={remove.isPending}
              onClick={() => target && remove.mutate(target)}
            />
          </div>
        }
      >
        <p className="m-0 beacon-editor-wrap">
          {`Are you sure you want to remove the subscriber ${target?.address ?? ''}? `}
          This page&apos;s updates are no longer sent there; it can subscribe again from the page.
        </p>
      </Dialog>
    </Card>
  );
}
