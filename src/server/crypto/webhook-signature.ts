import { createHmac } from 'node:crypto';

/**
 * `t=...,v1=...`: HMAC-SHA256 of `{t}.{body}` with the receiver's secret (Stripe's scheme), `t` in epoch seconds.
 * Signs status page webhooks (docs/decisions.md#status-pages) and alert webhooks (docs/decisions.md#alerts) alike,
 * so a receiver verifies both one way.
 */
export function webhookSignature(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
