/**
 * A status page's Atom 1.0 feed (RFC 4287; docs/decisions.md#status-pages: `/status/{page}/feed.atom` and the
 * per-component `/status/{page}/components/{service}/feed.atom`): one entry per notice, the most recently updated
 * first, whose content is its whole update timeline (and post-mortem) as escaped HTML.
 */
import type { StatusNotice } from '../../contract/status-pages.js';
import { escapeHtml, escapeXml as x } from './escape.js';
import { noticeStatusLabel } from './page-html.js';

export interface AtomFeedOptions {
  /** The feed's permanent id: an absolute IRI such as the feed's URL or a `tag:` URI. */
  id: string;
  title: string;
  /** The feed's own URL (rel="self"). */
  selfUrl: string;
  /** The status page it belongs to (rel="alternate"). */
  pageUrl: string;
  /** When anything in the feed last changed. */
  updated: string;
  notices: readonly StatusNotice[];
}

/** An RFC 3339 date-time as Atom wants it; the value as given when it does not parse. */
function atomDate(value: string): string {
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}

const time = (value: string) => Date.parse(value) || 0;

/** When the notice last changed: its newest update, or its own updated_at when that is later. */
function noticeUpdated(notice: StatusNotice): string {
  let latest = notice.updated_at;
  for (const update of notice.updates) if (time(update.created_at) > time(latest)) latest = update.created_at;
  return latest;
}

/** The notice's URL made absolute against the page's (it is the entry's id as well as its link). */
function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

const HUMAN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const human = (value: string) => (Number.isNaN(Date.parse(value)) ? value : `${HUMAN.format(Date.parse(value))} UTC`);

/** The entry's HTML: the window of a maintenance, the updates newest first, the post-mortem of a closed incident. */
function entryHtml(notice: StatusNotice): string {
  const parts: string[] = [];
  if (notice.starts_at || notice.ends_at) {
    const from = notice.starts_at ? human(notice.starts_at) : 'to be announced';
    const to = notice.ends_at ? human(notice.ends_at) : 'to be announced';
    parts.push(`<p><strong>Window:</strong> ${escapeHtml(from)} to ${escapeHtml(to)}</p>`);
  }
  const updates = [...notice.updates].sort((a, b) => time(b.created_at) - time(a.created_at));
  for (const update of updates) {
    parts.push(
      `<p><strong>${escapeHtml(noticeStatusLabel(update.status))}</strong> (${escapeHtml(human(update.created_at))})` +
        (update.body ? `<br>${escapeHtml(update.body).replace(/\r?\n/g, '<br>')}` : '') +
        '</p>',
    );
  }
  if (notice.postmortem_html && !notice.open) parts.push(`<h2>Post-mortem</h2>${notice.postmortem_html}`);
  return parts.join('\n');
}

function entry(notice: StatusNotice, pageUrl: string): string {
  const url = absolute(notice.url, pageUrl);
  return (
    '<entry>' +
    `<id>${x(url)}</id>` +
    `<title type="text">${x(`[${noticeStatusLabel(notice.status)}] ${notice.title}`)}</title>` +
    `<updated>${x(atomDate(noticeUpdated(notice)))}</updated>` +
    `<published>${x(atomDate(notice.created_at))}</published>` +
    `<link rel="alternate" type="text/html" href="${x(url)}"/>` +
    `<category term="${x(notice.type)}"/>` +
    `<content type="html">${x(entryHtml(notice))}</content>` +
    '</entry>'
  );
}

/** The feed as an Atom 1.0 document, every value XML-escaped. */
export function renderAtomFeed(options: AtomFeedOptions): string {
  const notices = [...options.notices].sort((a, b) => time(noticeUpdated(b)) - time(noticeUpdated(a)));
  // The feed changed at least when its newest entry did.
  const newest = notices[0] ? noticeUpdated(notices[0]) : options.updated;
  const updated = time(newest) > time(options.updated) ? newest : options.updated;
  const entries = notices.map((notice) => entry(notice, options.pageUrl));
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${x(options.id)}</id>` +
    `<title type="text">${x(options.title)}</title>` +
    `<updated>${x(atomDate(updated))}</updated>` +
    `<link rel="self" type="application/atom+xml" href="${x(options.selfUrl)}"/>` +
    `<link rel="alternate" type="text/html" href="${x(options.pageUrl)}"/>` +
    // RFC 4287 4.1.1: a feed names an author unless every entry does.
    `<author><name>${x(options.title)}</name></author>` +
    '<generator>Beacon</generator>' +
    entries.join('') +
    '</feed>\n'
  );
}
