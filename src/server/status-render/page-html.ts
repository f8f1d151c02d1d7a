/**
 * The public status page as complete HTML documents (docs/decisions.md#status-pages): the
 * page, the permalink of one notice and the password form of a locked page. Pure functions of the view the services
 * answer; everything reads with scripts off (the overall line, each component with its status in words, its
 * 90 days as labelled, focusable bars, the notices), and one optional inline script only keeps it live.
 *
 * Size: a day is one `<li>` whose accessible name (dayLabel) is also its hover and focus detail, drawn by CSS
 * from `attr(aria-label)`, so the text is written once; its colour is a one-letter class. No inline styles
 * anywhere (a nonce-based CSP would refuse them), all CSS in one <style>.
 */
import type { StatusComponent, StatusNotice, StatusView } from '../../contract/status-pages.js';
import { isClosed } from '../../domain/notices.js';
import {
  COMPONENT_STATUS_COLORS,
  COMPONENT_STATUS_LABELS,
  dayLabel,
  impactText,
  type ComponentStatus,
  type PageIndicator,
} from '../../domain/status-pages.js';
import { escapeHtml as h, scriptLiteral } from './escape.js';

export interface StatusPageOptions {
  /** Where the page lives, without a trailing slash: `/status/acme`, or '' on a custom domain. */
  basePath: string;
  /** The CSP nonce of this response, set on the <style> and the <script>. */
  nonce?: string;
  locked?: false;
  /** The page's Server-Sent Events stream; when given, a small script refreshes <main> on each message. */
  liveUrl?: string;
  /** Where the "Get updates by email" form posts (form-encoded `email`); no form without it. */
  subscribeUrl?: string;
}

export interface LockedPageOptions {
  title: string;
  /** `POST` target of the password: JSON `{ password }` from the script, form-encoded without it. */
  unlockUrl: string;
  /** Why the last attempt failed, shown above the field. */
  error?: string;
  nonce?: string;
}

// ---- colours ----

type StatusKey = ComponentStatus | 'no_data';

/** One-letter class of each status: the bars' colour and the status words' colour. */
export const STATUS_CLASS: Record<StatusKey, string> = {
  operational: 'o',
  under_maintenance: 'm',
  degraded_performance: 'd',
  partial_outage: 'p',
  major_outage: 'x',
  no_data: 'n',
};

const INDICATOR_STATUS: Record<PageIndicator, ComponentStatus> = {
  none: 'operational',
  maintenance: 'under_maintenance',
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'major_outage',
};

export interface Palette {
  /** Page background. */
  bg: string;
  /** Body text. */
  fg: string;
  /** Secondary text. */
  muted: string;
  /** Background of the component list and the banner. */
  card: string;
  border: string;
  link: string;
  status: Record<StatusKey, string>;
}

/**
 * Light and dark colours. Status colours are text too (the words next to each component), so each reaches 4.5:1
 * on both backgrounds (tests/unit/server/status-render/page-html.test.ts checks every pair); light mode uses the
 * domain's COMPONENT_STATUS_COLORS as they are, dark mode lighter shades of the same hues.
 */
export const PALETTE: { light: Palette; dark: Palette } = {
  light: {
    bg: '#ffffff',
    fg: '#111827',
    muted: '#4b5563',
    card: '#f9fafb',
    border: '#d1d5db',
    link: '#1d4ed8',
    status: COMPONENT_STATUS_COLORS,
  },
  dark: {
    bg: '#0b1120',
    fg: '#f3f4f6',
    muted: '#9ca3af',
    card: '#111827',
    border: '#374151',
    link: '#93c5fd',
    status: {
      operational: '#4ade80',
      under_maintenance: '#93c5fd',
      degraded_performance: '#facc15',
      partial_outage: '#fb923c',
      major_outage: '#f87171',
      no_data: '#9ca3af',
    },
  },
};

function paletteVars(palette: Palette): string {
  const status = (Object.keys(STATUS_CLASS) as StatusKey[])
    .map((key) => `--${STATUS_CLASS[key]}:${palette.status[key]}`)
    .join(';');
  return `--bg:${palette.bg};--fg:${palette.fg};--mu:${palette.muted};--cd:${palette.card};--bd:${palette.border};--ln:${palette.link};${status}`;
}

const CSS = [
  `:root{color-scheme:light dark;${paletteVars(PALETTE.light)}}`,
  `@media (prefers-color-scheme:dark){:root{${paletteVars(PALETTE.dark)}}}`,
  '*,::before,::after{box-sizing:border-box}',
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}',
  'a{color:var(--ln)}',
  ':focus-visible{outline:2px solid var(--fg);outline-offset:2px}',
  '.sk{position:absolute;left:.5rem;top:-4rem;z-index:9;padding:.5rem 1rem;background:var(--bg);color:var(--ln);border:2px solid var(--fg)}',
  '.sk:focus{top:.5rem}',
  '.sr{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}',
  '.sp{position:absolute;width:0;height:0;overflow:hidden}',
  '.w{max-width:56rem;margin:0 auto;padding-left:1rem;padding-right:1rem}',
  '.top{border-bottom:1px solid var(--bd)}',
  '.top .w{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;padding-top:.75rem;padding-bottom:.75rem}',
  '.top img{display:block;max-height:2.5rem;max-width:10rem;width:auto}',
  'main{display:block;padding-top:1.5rem;padding-bottom:3rem}',
  'main:focus{outline:none}',
  'h1{font-size:1.75rem;line-height:1.2;margin:0 0 .5rem}',
  'h2{font-size:1.25rem;line-height:1.3;margin:2.25rem 0 .75rem}',
  'h3{font-size:1.0625rem;line-height:1.3;margin:1.25rem 0 .5rem}',
  'h4{font-size:1rem;margin:0}',
  '.c h3{margin:0}',
  'p{margin:.5rem 0}',
  '.mu{color:var(--mu)}',
  '.sm{font-size:.875rem}',
  '.o{--c:var(--o)}.m{--c:var(--m)}.d{--c:var(--d)}.p{--c:var(--p)}.x{--c:var(--x)}.n{--c:var(--n)}',
  '.ic{width:1em;height:1em;flex:none;fill:currentColor}',
  '.ov{display:flex;align-items:center;gap:.75rem;margin:1rem 0;padding:1rem;border:1px solid var(--bd);border-left:.5rem solid var(--c);border-radius:.5rem;background:var(--cd)}',
  '.ov .ic{width:1.75rem;height:1.75rem;color:var(--c)}',
  '.ov p{margin:0}',
  '.ovd{font-size:1.125rem;font-weight:700}',
  '.st{display:inline-flex;align-items:center;gap:.375rem;color:var(--c);font-weight:600}',
  '.jn{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0;padding:0;list-style:none}',
  '.cs{margin:0;padding:0;list-style:none;border:1px solid var(--bd);border-radius:.5rem;background:var(--cd)}',
  '.c{padding:1rem}',
  '.c+.c{border-top:1px solid var(--bd)}',
  '.ch{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.25rem 1rem}',
  '.af{margin:.5rem 0 0;padding:0;list-style:none;font-size:.875rem}',
  '.af li{margin:.25rem 0;padding:.125rem 0 .125rem .5rem;border-left:3px dashed var(--p)}',
  '.tg{display:inline-block;margin-right:.375rem;padding:0 .4rem;border:1px solid currentColor;border-radius:1rem;font-size:.75rem;font-weight:700;letter-spacing:.02em;text-transform:uppercase}',
  '.b{position:relative;display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:1px;height:2rem;margin:.75rem 0 .25rem;padding:0;list-style:none}',
  '@media (min-width:40rem){.b{gap:2px}}',
  '.b>li{min-width:0;border-radius:1px;background:var(--c);cursor:default}',
  '.b>li.n{background:repeating-linear-gradient(135deg,var(--n) 0 1px,transparent 1px 4px);box-shadow:inset 0 0 0 1px var(--n)}',
  '.b>li:focus{outline:2px solid var(--fg);outline-offset:1px}',
  '.b>li:hover::after,.b>li:focus-within::after{content:attr(aria-label);position:absolute;left:0;right:0;top:calc(100% + .375rem);z-index:2;padding:.375rem .5rem;border:1px solid var(--bd);border-radius:.375rem;background:var(--bg);color:var(--fg);font-size:.875rem;box-shadow:0 .25rem .75rem rgb(0 0 0/.25)}',
  '.hx .b>li::after{display:none}',
  '.bl{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 .75rem;font-size:.8125rem;color:var(--mu)}',
  '.ni{margin:0 0 1rem;padding:1rem;border:1px solid var(--bd);border-radius:.5rem;background:var(--cd)}',
  '.ni h3{margin-top:0}',
  '.mt{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;font-size:.875rem;color:var(--mu)}',
  '.mt .tg{color:var(--fg)}',
  '.tl{margin:.75rem 0 0;padding:0 0 0 1rem;list-style:none;border-left:2px solid var(--bd)}',
  '.tl>li{margin:0 0 1rem}',
  '.tl>li:last-child{margin-bottom:0}',
  '.tl p{margin:0}',
  '.bd{white-space:pre-line}',
  '.pm{margin-top:1rem}',
  '.pm summary{cursor:pointer;font-weight:600;color:var(--ln)}',
  '.pm img{max-width:100%;height:auto}',
  '.pm pre{overflow-x:auto}',
  '.pm table{display:block;overflow-x:auto}',
  '.hs{margin:0;padding:0;list-style:none}',
  '.hs>li{padding:.75rem 0;border-top:1px solid var(--bd)}',
  '.hs h3{margin:0}',
  'footer{border-top:1px solid var(--bd);padding-top:1rem;padding-bottom:2rem;font-size:.875rem;color:var(--mu)}',
  'form{display:grid;gap:.5rem;max-width:22rem}',
  'label{font-weight:600}',
  'input{font:inherit;padding:.5rem;border:1px solid var(--mu);border-radius:.375rem;background:var(--bg);color:var(--fg)}',
  'button{justify-self:start;font:inherit;font-weight:600;padding:.5rem 1rem;border:0;border-radius:.375rem;background:var(--ln);color:var(--bg);cursor:pointer}',
  'button:disabled{opacity:.6;cursor:progress}',
  '.er{margin:0;color:var(--x);font-weight:600}',
].join('');

// ---- icons (shape carries the meaning together with the words, never colour alone) ----

const ICON_PATHS: Record<ComponentStatus, string> = {
  // a tick in a circle
  operational: 'M8 0a8 8 0 1 1 0 16A8 8 0 0 1 8 0zM6.8 11.6l5.6-5.6L11 4.6 6.8 8.8 5 7 3.6 8.4z',
  // a clock
  under_maintenance: 'M8 0a8 8 0 1 1 0 16A8 8 0 0 1 8 0zM7 3v5.6l3.8 2.3.9-1.5L9 7.8V3z',
  // a triangle with "!"
  degraded_performance: 'M8 .5l8 15H0zM7 5.5h2v5H7zm0 6.5h2v2H7z',
  // a diamond with "!"
  partial_outage: 'M8 0l8 8-8 8-8-8zM7 3.5h2v5.5H7zm0 7h2v2H7z',
  // an octagon with "×"
  major_outage:
    'M4.7 0h6.6L16 4.7v6.6L11.3 16H4.7L0 11.3V4.7zM5 3.6L3.6 5l3 3-3 3L5 12.4l3-3 3 3 1.4-1.4-3-3 3-3L11 3.6l-3 3z',
};

const SPRITE =
  '<svg class="sp" aria-hidden="true" focusable="false">' +
  (Object.keys(ICON_PATHS) as ComponentStatus[])
    .map(
      (status) =>
        `<symbol id="i-${STATUS_CLASS[status]}" viewBox="0 0 16 16"><path fill-rule="evenodd" d="${ICON_PATHS[status]}"/></symbol>`,
    )
    .join('') +
  '</svg>';

function icon(status: ComponentStatus): string {
  return `<svg class="ic" aria-hidden="true" focusable="false"><use href="#i-${STATUS_CLASS[status]}"/></svg>`;
}

// ---- words and times ----

/** 'in_progress' reads 'In progress'. */
export function noticeStatusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPE_LABELS: Record<StatusNotice['type'], string> = { incident: 'Incident', maintenance: 'Maintenance' };

const DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
const TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "Mar 5, 2025, 14:05 UTC" in a <time>; the text as given when it is not a time. */
export function utcTime(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return h(iso);
  return `<time datetime="${new Date(at).toISOString()}">${DATE.format(at)}, ${TIME.format(at)} UTC</time>`;
}

/** "Mar 5, 2025, 14:00 to 16:00 UTC", or across days "Mar 5, 2025, 22:00 to Mar 6, 2025, 02:00 UTC". */
export function utcWindow(startsAt: string | null, endsAt: string | null): string {
  const start = startsAt === null ? NaN : Date.parse(startsAt);
  const end = endsAt === null ? NaN : Date.parse(endsAt);
  if (Number.isNaN(start) && Number.isNaN(end)) return 'Time to be announced';
  if (Number.isNaN(end)) return `From ${utcTime(startsAt!)}, end to be announced`;
  if (Number.isNaN(start)) return `Until ${utcTime(endsAt!)}`;
  const startText = `${DATE.format(start)}, ${TIME.format(start)}`;
  const endText =
    DATE.format(start) === DATE.format(end) ? TIME.format(end) : `${DATE.format(end)}, ${TIME.format(end)}`;
  const iso = (at: number) => new Date(at).toISOString();
  return `<time datetime="${iso(start)}">${startText}</time> to <time datetime="${iso(end)}">${endText}</time> UTC`;
}

/** "99.95%": two decimals, rounded down so that an imperfect day never reads 100%. */
export function percent(uptime: number): string {
  return `${(Math.floor(uptime * 100 + 1e-6) / 100).toFixed(2)}%`;
}

/** The updates newest first, whatever order they came in (a stable sort: equal times keep theirs). */
function newestFirst(updates: StatusNotice['updates']): StatusNotice['updates'] {
  return [...updates].sort((a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0));
}

function noticeClosed(notice: StatusNotice): boolean {
  return !notice.open || isClosed(notice.type, notice.status);
}

// ---- pieces ----

const slug = (value: string) => h(value.replace(/[^A-Za-z0-9_-]/g, '-'));

function noticeUrl(basePath: string, notice: StatusNotice): string {
  return `${basePath}/incidents/${encodeURIComponent(notice.id)}`;
}

function dayItem(day: StatusComponent['days'][number]): string {
  const titles = day.notices.map((notice) => notice.title).join('; ');
  const label = dayLabel(day, day.notices.length) + (titles ? ` — ${titles}` : '');
  // Unquoted one-word attributes and no </li> (optional in HTML): 13 bytes a day, 23 KB on a page of 20.
  return `<li tabindex=0 class=${STATUS_CLASS[day.status]} aria-label="${h(label)}">`;
}

/**
 * A component's HTML, kept with it: a page's view gives again the very component object whose content did not
 * change (services/status-pages/status-view.ts), and a page of 500 components is 45,000 bars.
 */
const renderedItems = { 3: new WeakMap<StatusComponent, Buffer>(), 4: new WeakMap<StatusComponent, Buffer>() };

function componentItem(component: StatusComponent, level: 3 | 4): Buffer {
  let html = renderedItems[level].get(component);
  if (html === undefined) {
    html = Buffer.from(renderComponentItem(component, level));
    renderedItems[level].set(component, html);
  }
  return html;
}

function renderComponentItem(component: StatusComponent, level: 3 | 4): string {
  const status = component.status;
  const uptime = component.uptime_90d === null ? 'No data' : `${percent(component.uptime_90d)} uptime`;
  const affected = component.affected_by.length
    ? `<ul class="af">${component.affected_by
        .map((impact) => {
          const text = impactText(impact);
          const match = /^Affected:\s*/.exec(text);
          return match
            ? `<li><span class="tg">Affected</span><span class="sr">: </span>${h(text.slice(match[0].length))}</li>`
            : `<li>${h(text)}</li>`;
        })
        .join('')}</ul>`
    : '';
  const count = component.days.length;
  const bars = count
    ? `<ol class="b" aria-label="${h(component.name)}, last ${count} days, oldest first">${component.days.map(dayItem).join('')}</ol>` +
      `<p class="bl"><span>${count} days ago</span> <span>${uptime}<span class="sr"> over the last ${count} days</span></span> <span>Today</span></p>`
    : `<p class="bl"><span>Uptime: ${uptime}</span></p>`;
  return (
    `<li class="c" id="c-${slug(component.handle)}"><div class="ch"><h${level}>${h(component.name)}</h${level}>` +
    `<span class="st ${STATUS_CLASS[status]}">${icon(status)}${h(COMPONENT_STATUS_LABELS[status])}</span></div>` +
    `${affected}${bars}</li>`
  );
}

/** Components by group, groups in the order they first appear, components in theirs. */
function componentGroups(components: readonly StatusComponent[]): { name: string; components: StatusComponent[] }[] {
  const groups = new Map<string, StatusComponent[]>();
  for (const component of components) {
    const list = groups.get(component.group);
    if (list) list.push(component);
    else groups.set(component.group, [component]);
  }
  return [...groups].map(([name, list]) => ({ name, components: list }));
}

/** The components' part of the page: bytes, most of them each component's, kept with it. */
function componentsSection(view: StatusView): Chunk[] {
  if (view.components.length === 0) return ['<h2 id="components">Components</h2><p>No components are listed yet.</p>'];
  const chunks: Chunk[] = ['<h2 id="components">Components</h2>'];
  for (const { name, components } of componentGroups(view.components)) {
    const level = name.trim() ? 4 : 3;
    chunks.push(level === 4 ? `<h3>${h(name)}</h3><ul class="cs">` : '<ul class="cs">');
    for (const component of components) chunks.push(componentItem(component, level));
    chunks.push('</ul>');
  }
  return chunks;
}

function componentNames(view: StatusView, notice: StatusNotice): string {
  const names = new Map(view.components.map((c) => [c.handle, c.name]));
  return notice.components.map((handle) => h(names.get(handle) ?? handle)).join(', ');
}

function noticeMeta(view: StatusView, notice: StatusNotice): string {
  const affects = notice.components.length ? ` <span>Affects ${componentNames(view, notice)}</span>` : '';
  return (
    `<p class="mt"><span class="tg">${TYPE_LABELS[notice.type]}</span> ` +
    `<span><strong>${h(noticeStatusLabel(notice.status))}</strong></span>${affects}</p>`
  );
}

function windowLine(notice: StatusNotice): string {
  if (notice.type !== 'maintenance' && notice.starts_at === null && notice.ends_at === null) return '';
  return `<p><strong>Window:</strong> ${utcWindow(notice.starts_at, notice.ends_at)}</p>`;
}

function timeline(notice: StatusNotice): string {
  if (notice.updates.length === 0) return '';
  const items = newestFirst(notice.updates).map(
    (update) =>
      `<li><p><strong>${h(noticeStatusLabel(update.status))}</strong> <span class="mu sm">${utcTime(update.created_at)}</span></p>` +
      (update.body.trim() ? `<p class="bd">${h(update.body)}</p>` : '') +
      '</li>',
  );
  return `<ol class="tl" aria-label="Updates, newest first">${items.join('')}</ol>`;
}

function activeItem(view: StatusView, notice: StatusNotice, basePath: string): string {
  return (
    `<article class="ni" id="n-${slug(notice.id)}"><h3><a href="${h(noticeUrl(basePath, notice))}">${h(notice.title)}</a></h3>` +
    `${noticeMeta(view, notice)}${windowLine(notice)}${timeline(notice)}</article>`
  );
}

function postmortem(notice: StatusNotice, open: boolean): string {
  if (!notice.postmortem_html || !noticeClosed(notice)) return '';
  // Sanitised by the notices service (as pages are): inserted as it is.
  return open
    ? `<section class="pm" aria-labelledby="pm-h"><h2 id="pm-h">Post-mortem</h2>${notice.postmortem_html}</section>`
    : `<details class="pm"><summary>Post-mortem</summary>${notice.postmortem_html}</details>`;
}

function historyItem(view: StatusView, notice: StatusNotice, basePath: string): string {
  const latest = newestFirst(notice.updates)[0];
  const when =
    notice.type === 'maintenance' && (notice.starts_at || notice.ends_at)
      ? utcWindow(notice.starts_at, notice.ends_at)
      : `${utcTime(notice.created_at)}${noticeClosed(notice) ? ` to ${utcTime(notice.updated_at)}` : ''}`;
  return (
    `<li><h3><a href="${h(noticeUrl(basePath, notice))}">${h(notice.title)}</a></h3>${noticeMeta(view, notice)}` +
    `<p class="mu sm">${when}</p>` +
    (latest && latest.body.trim() ? `<p class="bd">${h(latest.body)}</p>` : '') +
    `${postmortem(notice, false)}</li>`
  );
}

// ---- documents ----

function head(title: string, options: { basePath?: string; nonce?: string; description?: string }): string {
  const nonce = options.nonce ? ` nonce="${h(options.nonce)}"` : '';
  const feed =
    options.basePath !== undefined
      ? `<link rel="alternate" type="application/atom+xml" title="${h(title)}: incidents and maintenance" href="${h(`${options.basePath}/feed.atom`)}">`
      : '';
  const description = options.description ? `<meta name="description" content="${h(options.description)}">` : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${h(title)}</title>${description}${feed}<style${nonce}>${CSS}</style></head>`
  );
}

function pageHeader(view: StatusView, basePath: string): string {
  const home = basePath || '/';
  const logo = view.page.logo_url ? `<img src="${h(view.page.logo_url)}" alt="">` : '';
  return (
    `<header class="top"><div class="w"><a href="${h(home)}" class="sm">${logo}<span${logo ? ' class="sr"' : ''}>${h(view.page.title)}</span></a>` +
    `<a href="${h(`${basePath}/feed.atom`)}" class="sm">Subscribe via Atom</a></div></header>`
  );
}

/** The live page's one script, as it goes in the page (its CSP names it by hash: the page is made once). */
export function liveScriptSource(liveUrl: string): string {
  // Replaces <main> with the same page fetched again on each stream message, or every 30 s while the stream is
  // down; keeps focus (same id, else the same position among focusable elements) and open <details>, and says a
  // change of the overall line in a polite live region. Escape hides the hover and focus details (WCAG 1.4.13).
  return (
    `(()=>{const u=${scriptLiteral(liveUrl)},q='a[href],button,input,summary,[tabindex]',R=document.documentElement;` +
    'let busy=0,again=0,timer=0;' +
    'const text=(m)=>{const e=m.querySelector(".ovd");return e?e.textContent:""};' +
    'async function refresh(){if(busy){again=1;return}busy=1;try{' +
    "const r=await fetch(location.href,{headers:{accept:'text/html'},credentials:'same-origin',cache:'no-store'});" +
    "if(r.ok){const d=new DOMParser().parseFromString(await r.text(),'text/html'),n=d.querySelector('main'),m=document.querySelector('main');" +
    'if(n&&m&&n.innerHTML!==m.innerHTML){const a=document.activeElement,inside=a&&a!==m&&m.contains(a),id=inside&&a.id,' +
    "i=inside?[...m.querySelectorAll(q)].indexOf(a):-1,open=[...m.querySelectorAll('details')].map((e)=>e.open),before=text(m);" +
    "m.innerHTML=n.innerHTML;m.querySelectorAll('details').forEach((e,k)=>{if(open[k])e.open=true});" +
    'if(inside){const t=(id&&document.getElementById(id))||m.querySelectorAll(q)[i]||m;t.focus({preventScroll:true})}' +
    "const after=text(m),l=document.getElementById('lv');if(l&&after&&after!==before)l.textContent=after;" +
    'if(d.title)document.title=d.title}}}catch(e){}busy=0;if(again){again=0;refresh()}}' +
    'const poll=()=>{if(!timer)timer=setInterval(refresh,30000)};' +
    "if(typeof EventSource==='function'){const s=new EventSource(u);s.onmessage=refresh;s.onerror=poll;" +
    's.onopen=()=>{if(timer){clearInterval(timer);timer=0;refresh()}}}else poll();' +
    "addEventListener('keydown',(e)=>{if(e.key==='Escape')R.classList.add('hx')});" +
    "addEventListener('focusin',()=>R.classList.remove('hx'));addEventListener('mouseover',()=>R.classList.remove('hx'))})();"
  );
}

function liveScript(liveUrl: string, nonce: string | undefined): string {
  return `<script${nonce ? ` nonce="${h(nonce)}"` : ''}>${liveScriptSource(liveUrl)}</script>`;
}

/** A document in pieces: text, and bytes kept from an earlier document. */
type Chunk = string | Buffer;

function shell(
  view: StatusView,
  title: string,
  main: Chunk | Chunk[],
  options: StatusPageOptions,
  extra: { description?: string } = {},
): Buffer {
  const live = options.liveUrl !== undefined && options.liveUrl !== '';
  const chunks: Chunk[] = [
    head(title, { basePath: options.basePath, nonce: options.nonce, description: extra.description }) +
      `<body><a class="sk" href="#main">Skip to content</a>${SPRITE}${pageHeader(view, options.basePath)}` +
      '<main id="main" class="w" tabindex="-1">',
    ...(Array.isArray(main) ? main : [main]),
    '</main>' +
      `<footer class="w"><p>${h(view.page.title)} · <a href="${h(`${options.basePath}/feed.atom`)}">Subscribe via Atom</a> · Times in UTC</p></footer>` +
      (live ? `<div id="lv" class="sr" aria-live="polite"></div>${liveScript(options.liveUrl!, options.nonce)}` : '') +
      '</body></html>',
  ];
  return Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
}

function overall(view: StatusView): string {
  const status = INDICATOR_STATUS[view.status.indicator] ?? 'operational';
  return (
    `<div class="ov ${STATUS_CLASS[status]}">${icon(status)}<div><p class="ovd">${h(view.status.description)}</p>` +
    `<p class="mu sm">Updated ${utcTime(view.page.updated_at)}</p></div></div>`
  );
}

/** The whole status page (`GET /status/{page}`), complete without scripts. */
export function renderStatusPageHtml(view: StatusView, options: StatusPageOptions): string {
  return renderStatusPage(view, options).toString('utf8');
}

/** The same page as bytes, made mostly of those kept from the page's previous making. */
export function renderStatusPage(view: StatusView, options: StatusPageOptions): Buffer {
  const { basePath } = options;
  const jump: string[] = [];
  const sections: Chunk[] = [];
  if (view.active.length) {
    jump.push('<li><a href="#active">Active incidents and maintenance</a></li>');
    sections.push(
      `<h2 id="active">Active incidents and maintenance</h2>${view.active.map((n) => activeItem(view, n, basePath)).join('')}`,
    );
  }
  if (view.scheduled.length) {
    jump.push('<li><a href="#scheduled">Scheduled maintenance</a></li>');
    sections.push(
      `<h2 id="scheduled">Scheduled maintenance</h2>${view.scheduled.map((n) => activeItem(view, n, basePath)).join('')}`,
    );
  }
  jump.push('<li><a href="#components">Components</a></li>', '<li><a href="#history">Past incidents</a></li>');
  sections.push(...componentsSection(view));
  sections.push(
    '<h2 id="history">Past incidents</h2>' +
      (view.recent.length
        ? `<ul class="hs">${view.recent.map((n) => historyItem(view, n, basePath)).join('')}</ul>`
        : '<p>No recent incidents.</p>'),
  );
  if (options.subscribeUrl) {
    jump.push('<li><a href="#subscribe">Get updates</a></li>');
    sections.push(
      '<h2 id="subscribe">Get updates</h2>' +
        `<form method="post" action="${h(options.subscribeUrl)}">` +
        '<label for="se">Email</label> <input id="se" type="email" name="email" required autocomplete="email"> ' +
        '<button type="submit">Subscribe</button></form>' +
        '<p class="sm">We mail you a link to confirm. Every mail has a link to stop.</p>',
    );
  }
  const description = view.page.description.trim() ? `<p class="bd">${h(view.page.description)}</p>` : '';
  const main = [
    `<h1>${h(view.page.title)}</h1>${description}${overall(view)}` +
      `<nav aria-label="On this page"><ul class="jn sm">${jump.join('')}</ul></nav>`,
    ...sections,
  ];
  return shell(view, `${view.page.title} status`, main, options, {
    description: `${view.page.title}: ${view.status.description}`,
  });
}

/** The permalink page of one notice (`GET /status/{page}/incidents/{id}`). */
export function renderNoticePageHtml(view: StatusView, notice: StatusNotice, options: StatusPageOptions): string {
  const home = options.basePath || '/';
  const main =
    `<p class="sm"><a href="${h(home)}">Back to ${h(view.page.title)} status</a></p>` +
    `<h1>${h(notice.title)}</h1>${noticeMeta(view, notice)}${windowLine(notice)}` +
    `<p class="mu sm">Posted ${utcTime(notice.created_at)} · last updated ${utcTime(notice.updated_at)}</p>` +
    `<h2>Updates</h2>${notice.updates.length ? timeline(notice) : '<p>No updates yet.</p>'}` +
    postmortem(notice, true);
  return shell(view, `${notice.title} · ${view.page.title} status`, main, options, {
    description: `${TYPE_LABELS[notice.type]}: ${notice.title} (${noticeStatusLabel(notice.status)})`,
  }).toString('utf8');
}

/** A password-protected page before it is unlocked: a form that works with and without scripts. */
export function renderLockedPageHtml(options: LockedPageOptions): string {
  const error = options.error ?? '';
  const invalid = error ? ' aria-invalid="true"' : '';
  const nonce = options.nonce ? ` nonce="${h(options.nonce)}"` : '';
  const script =
    "(()=>{const f=document.getElementById('uf'),e=document.getElementById('ue'),p=document.getElementById('pw');" +
    "f.addEventListener('submit',async(ev)=>{ev.preventDefault();const b=f.querySelector('button');b.disabled=true;e.textContent='';" +
    "try{const r=await fetch(f.action,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json',accept:'application/json'}," +
    'body:JSON.stringify({password:p.value})});if(r.ok){location.reload();return}' +
    "let m=r.status===429?'Too many attempts. Wait a minute and try again.':'That password is not right.';" +
    "try{const j=await r.json();if(j&&typeof j.message==='string'&&j.message)m=j.message}catch(x){}" +
    "e.textContent=m;p.setAttribute('aria-invalid','true');p.focus()}" +
    "catch(x){e.textContent='The server could not be reached. Try again.'}b.disabled=false})})();";
  return (
    head(options.title, { nonce: options.nonce }) +
    '<body><a class="sk" href="#main">Skip to content</a>' +
    `<main id="main" class="w" tabindex="-1"><h1>${h(options.title)}</h1>` +
    '<p>This status page is protected. Enter its password to see it.</p>' +
    `<form id="uf" method="post" action="${h(options.unlockUrl)}">` +
    '<label for="pw">Password</label>' +
    `<p id="ue" class="er" role="alert">${h(error)}</p>` +
    `<input id="pw" type="password" name="password" required autocomplete="current-password" aria-describedby="ue"${invalid}>` +
    '<button type="submit">View status</button></form></main>' +
    `<script${nonce}>${script}</script></body></html>`
  );
}

export interface MessagePageOptions {
  /** The page's title, above the message. */
  title: string;
  heading: string;
  message: string;
  /** A one-button form (posting `fields`), e.g. to confirm an unsubscribe without a script. */
  form?: { action: string; button: string; fields: Record<string, string> };
  /** Where "Back to the status page" goes. */
  backUrl?: string;
}

/** A short page that says one thing (a subscription confirmed, an unsubscribe to confirm or done). */
export function renderMessagePageHtml(options: MessagePageOptions): string {
  const form = options.form
    ? `<form method="post" action="${h(options.form.action)}">` +
      Object.entries(options.form.fields)
        .map(([name, value]) => `<input type="hidden" name="${h(name)}" value="${h(value)}">`)
        .join('') +
      `<button type="submit">${h(options.form.button)}</button></form>`
    : '';
  const back = options.backUrl ? `<p><a href="${h(options.backUrl)}">Back to the status page</a></p>` : '';
  return (
    head(options.title, {}) +
    '<body><a class="sk" href="#main">Skip to content</a>' +
    `<main id="main" class="w" tabindex="-1"><h1>${h(options.heading)}</h1>` +
    `<p>${h(options.message)}</p>${form}${back}</main></body></html>`
  );
}
