/**
 * A component's badges (docs/decisions.md#status-pages: `/status/{page}/badges/{service}.svg?kind=status|uptime` and
 * Shields.io's endpoint JSON at `/api/status/{page}/shields/{service}.json`): shields' "flat" style drawn here, so a
 * README shows the badge without a round trip through shields.io.
 */
import type { z } from 'zod';
import type { shieldsEndpoint } from '../../contract/status-pages.js';
import {
  COMPONENT_STATUS_COLORS,
  COMPONENT_STATUS_LABELS,
  uptimeColor,
  type ComponentStatus,
} from '../../domain/status-pages.js';
import { escapeXml as x } from './escape.js';
import { percent } from './page-html.js';

export interface Badge {
  label: string;
  message: string;
  /** A shields colour name (brightgreen, green, yellow, orange, red, lightgrey, ...) or a hex colour. */
  color: string;
}

export type ShieldsEndpoint = z.infer<typeof shieldsEndpoint>;

/** Shields' named colours as it draws them. */
export const SHIELDS_COLORS: Record<string, string> = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  blue: '#007ec6',
  grey: '#555',
  gray: '#555',
  lightgrey: '#9f9f9f',
  lightgray: '#9f9f9f',
};

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The hex colour a badge is drawn in: a shields name mapped, a hex kept, anything else light grey. */
export function badgeHex(color: string): string {
  const name = color.toLowerCase();
  if (Object.hasOwn(SHIELDS_COLORS, name)) return SHIELDS_COLORS[name]!;
  const hex = HEX.exec(color);
  return hex ? `#${hex[1]!.toLowerCase()}` : SHIELDS_COLORS.lightgrey!;
}

/** Shields' rule for the text on a background: white on dark ones, dark grey on light ones. */
function textColors(hex: string): { fill: string; shadow: string } {
  let digits = hex.slice(1);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
  const brightness = (0.299 * r! + 0.587 * g! + 0.114 * b!) / 255;
  return brightness <= 0.69 ? { fill: '#fff', shadow: '#010101' } : { fill: '#333', shadow: '#ccc' };
}

/** Estimated width of 11 px Verdana: about 6.5 px a character. */
export function textWidth(text: string): number {
  return Math.round([...text].length * 6.5);
}

/** A shields-style flat badge: the label on grey at the left, the message on its colour at the right. */
export function renderBadgeSvg(options: Badge): string {
  const label = options.label;
  const message = options.message;
  const color = badgeHex(options.color);
  const labelText = textWidth(label);
  const messageText = textWidth(message);
  const labelWidth = label ? labelText + 10 : 0;
  const messageWidth = messageText + 10;
  const width = labelWidth + messageWidth;
  const name = x(label ? `${label}: ${message}` : message);
  const text = (value: string, middle: number, length: number, colors: { fill: string; shadow: string }) =>
    `<text aria-hidden="true" x="${middle}" y="15" fill="${colors.shadow}" fill-opacity=".3" textLength="${length}">${x(value)}</text>` +
    `<text x="${middle}" y="14" fill="${colors.fill}" textLength="${length}">${x(value)}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${name}">` +
    `<title>${name}</title>` +
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>' +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    '<g clip-path="url(#r)">' +
    (label ? `<rect width="${labelWidth}" height="20" fill="#555"/>` : '') +
    `<rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${color}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/></g>` +
    '<g text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="11">' +
    (label ? text(label, labelWidth / 2, labelText, { fill: '#fff', shadow: '#010101' }) : '') +
    text(message, labelWidth + messageWidth / 2, messageText, textColors(color)) +
    '</g></svg>'
  );
}

/** "Payments | Operational", in the status's colour. */
export function statusBadge(component: { name: string; status: ComponentStatus }): Badge {
  return {
    label: component.name,
    message: COMPONENT_STATUS_LABELS[component.status],
    color: COMPONENT_STATUS_COLORS[component.status],
  };
}

/**
 * "Payments uptime | 99.95% (90d)" in shields' colour of the figure. `days` only names the period in the
 * message: the figure is the one the component carries (`uptime_90d`), so it defaults to 90.
 */
export function uptimeBadge(component: { name: string; uptime_90d: number | null }, days = 90): Badge {
  return {
    label: `${component.name} uptime`,
    message: component.uptime_90d === null ? 'no data' : `${percent(component.uptime_90d)} (${days}d)`,
    color: uptimeColor(component.uptime_90d),
  };
}

/**
 * Shields.io's endpoint JSON of a badge: a shields colour name as it is; a hex colour (a status's) as shields
 * reads one, six digits without the '#'.
 */
export function shieldsJson(badge: Badge): ShieldsEndpoint {
  const named = Object.hasOwn(SHIELDS_COLORS, badge.color.toLowerCase());
  const color = named ? badge.color.toLowerCase() : badgeHex(badge.color).slice(1);
  return { schemaVersion: 1, label: badge.label, message: badge.message, color };
}
