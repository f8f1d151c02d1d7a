/**
 * What every alert channel's sender shares (docs/decisions.md#alerts): one module per vendor renders the one
 * message model (domain/alerts.ts AlertMessage) in its vendor's documented format and POSTs it through the
 * address guard's dispatcher. The alert outbox (jobs/alert-outbox.ts) claims, sends, retries and logs.
 */
import type { Dispatcher } from 'undici';
import type { AlertMessage } from '../../../domain/alerts.js';
import type { VendorUrls } from '../../config.js';

export type { VendorUrls };

export interface SendContext {
  dispatcher: Dispatcher;
  timeoutMs: number;
  urls: VendorUrls;
  /** The delivery's id: sent as X-Beacon-Delivery where the vendor allows headers, so a repeat can be dropped. */
  deliveryId: string;
  /** Epoch ms, for signatures. */
  now: number;
}

/** A failed attempt: the vendor's status when it answered, and a wait it asked for (429 Retry-After, retry_after). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** What a sent delivery answered: its HTTP status (shown in the delivery log). */
export interface Delivered {
  status: number;
}

/** One vendor's sender: `config` is the channel's config with its secrets opened. */
export type ChannelSender<Config> = (config: Config, message: AlertMessage, send: SendContext) => Promise<Delivered>;
