// @vitest-environment jsdom
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dayLabel, impactText } from '../../../../src/domain/status-pages.js';
import {
  PALETTE,
  renderLockedPageHtml,
  renderNoticePageHtml,
  renderStatusPageHtml,
  type Palette,
} from '../../../../src/server/status-render/page-html.js';
import {
  XSS,
  activeIncident,
  component,
  days,
  notice,
  resolvedIncident,
  scheduledMaintenance,
  upstream,
  view,
} from './fixtures.js';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
const options = { basePath: '/status/acme' };

describe('renderStatusPageHtml', () => {
  const html = renderStatusPageHtml(view(), options);
  const doc = parse(html);

  it('is a complete English document with a skip link, one <main> and the feed', () => {
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(doc.documentElement.lang).toBe('en');
    expect(doc.title).toBe('Acme status');
    expect(doc.querySelectorAll('main')).toHaveLength(1);
    const skip = doc.querySelector('body > a');
    expect(skip?.getAttribute('href')).toBe('#main');
    expect(doc.getElementById('main')?.tagName).toBe('MAIN');
    const feed = doc.querySelector('link[rel="alternate"]');
    expect(feed?.getAttribute('type')).toBe('application/atom+xml');
    expect(feed?.getAttribute('href')).toBe('/status/acme/feed.atom');
    const subscribe = [...doc.querySelectorAll('a')].filter((a) => text(a) === 'Subscribe via Atom');
    expect(subscribe.length).toBeGreaterThan(0);
    expect(subscribe.every((a) => a.getAttribute('href') === '/status/acme/feed.atom')).toBe(true);
    expect(doc.querySelectorAll('style')).toHaveLength(1);
    expect(doc.querySelector('style')?.textContent).toContain('prefers-color-scheme:dark');
  });

  it('needs no script and no inline style', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('says the overall status in words next to an icon', () => {
    const banner = doc.querySelector('.ov');
    expect(text(banner)).toContain('Partially Degraded Service');
    expect(text(banner)).toContain('Updated Mar 5, 2025, 10:00 UTC');
    expect(banner?.querySelector('svg use')?.getAttribute('href')).toBe('#i-d');
    expect(banner?.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('escapes every text from the view', () => {
    expect(html).not.toContain(XSS);
    expect(html).toContain('Checkout &lt;script&gt;alert(1)&lt;/script&gt; errors');
    expect(html).toContain('CDN &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Looking into &lt;b&gt;failed&lt;/b&gt; payments');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelector('main b')).toBeNull();
    // A quote in a label cannot close its attribute.
    const quoted = renderStatusPageHtml(
      view({ components: [component('q', { name: 'say "hi" \'there\'' })] }),
      options,
    );
    expect(parse(quoted).querySelector('ol.b')?.getAttribute('aria-label')).toBe(
      'say "hi" \'there\', last 90 days, oldest first',
    );
  });

  it('puts headings in order: the sections, the groups, the components', () => {
    const headings = [...doc.querySelectorAll('h1,h2,h3,h4')].map((el) => `${el.tagName} ${text(el)}`);
    expect(headings).toEqual([
      'H1 Acme',
      'H2 Active incidents and maintenance',
      `H3 Checkout ${XSS} errors`,
      'H2 Scheduled maintenance',
      'H3 Database upgrade',
      'H2 Components',
      'H3 Core',
      'H4 Api',
      'H4 Payments',
      'H3 Edge',
      `H4 CDN ${XSS}`,
      'H2 Past incidents',
      'H3 API latency',
      // From the post-mortem's own HTML.
      'H3 What happened',
    ]);
    let level = 0;
    for (const el of doc.querySelectorAll('h1,h2,h3,h4,h5,h6')) {
      const next = Number(el.tagName[1]);
      expect(next).toBeLessThanOrEqual(level + 1);
      level = next;
    }
  });

  it('groups components in order, each with its status in words and its uptime', () => {
    const groups = [...doc.querySelectorAll('ul.cs')].map((list) =>
      [...list.querySelectorAll(':scope > li')].map(
        (li) => `${text(li.querySelector('h4'))}: ${text(li.querySelector('.st'))}`,
      ),
    );
    expect(groups).toEqual([['Api: Operational', 'Payments: Degraded performance'], [`CDN ${XSS}: Under maintenance`]]);
    expect(text(doc.getElementById('c-api')?.querySelector('.bl'))).toContain(
      '90 days ago 99.95% uptime over the last 90 days Today',
    );
    expect(text(doc.getElementById('c-cdn')?.querySelector('.bl'))).toContain('No data');
    expect(text(doc.getElementById('c-cdn')?.querySelector('.bl'))).not.toContain('100');
  });

  it('gives every day a focusable bar named by dayLabel, with the notice titles', () => {
    const rendered = view();
    for (const c of rendered.components) {
      const bars = [...doc.querySelectorAll(`#c-${c.handle} ol.b > li`)];
      expect(bars).toHaveLength(90);
      bars.forEach((bar, index) => {
        const day = c.days[index]!;
        const titles = day.notices.map((n) => n.title).join('; ');
        expect(bar.getAttribute('tabindex')).toBe('0');
        expect(bar.getAttribute('aria-label')).toBe(dayLabel(day, day.notices.length) + (titles ? ` — ${titles}` : ''));
      });
    }
    const incidentDay = doc.querySelectorAll('#c-api ol.b > li')[85];
    expect(incidentDay?.getAttribute('aria-label')).toBe(
      `Mar 1, 2025: 98.50% uptime, partial outage, 1 notice — API ${XSS} latency`,
    );
    expect(incidentDay?.className).toBe('p');
  });

  it('draws days without data as such, never as 100 %', () => {
    const noData = [...doc.querySelectorAll('ol.b > li.n')];
    expect(noData).toHaveLength(3 + 90);
    for (const bar of noData) {
      expect(bar.getAttribute('aria-label')).toMatch(/: no data$/);
      expect(bar.getAttribute('aria-label')).not.toContain('100');
      expect(bar.getAttribute('aria-label')).not.toContain('uptime');
    }
    expect(doc.querySelector('#c-api ol.b > li')?.getAttribute('aria-label')).toBe('Dec 6, 2024: no data');
    const css = doc.querySelector('style')?.textContent ?? '';
    expect(css).toContain('.b>li.n{background:repeating-linear-gradient');
    expect(css).toContain('.b>li:hover::after,.b>li:focus-within::after{content:attr(aria-label)');
  });

  it('shows upstream impact apart from the component’s own status', () => {
    const payments = doc.getElementById('c-payments');
    const impact = payments?.querySelector('ul.af > li');
    expect(text(impact)).toBe(impactText(upstream));
    expect(text(impact)).toBe(`Affected: depends on Database → Storage ${XSS} (major outage)`);
    expect(text(impact?.querySelector('.tg'))).toBe('Affected');
    // Its own status is still its own.
    expect(text(payments?.querySelector('.st'))).toBe('Degraded performance');
    expect(doc.getElementById('c-api')?.querySelector('ul.af')).toBeNull();
  });

  it('lists active notices with their whole timeline, newest first', () => {
    const article = doc.getElementById('n-inc-1');
    expect(article?.querySelector('h3 a')?.getAttribute('href')).toBe('/status/acme/incidents/inc-1');
    expect(text(article?.querySelector('.mt'))).toBe('Incident Identified Affects Payments, gone');
    const updates = [...(article?.querySelectorAll('ol.tl > li') ?? [])].map((li) =>
      [...li.querySelectorAll('p')].map(text),
    );
    expect(updates).toEqual([
      ['Identified Mar 5, 2025, 09:30 UTC', 'A bad deploy. Rolling back.'],
      ['Investigating Mar 5, 2025, 08:00 UTC', 'Looking into <b>failed</b> payments'],
    ]);
    // Line breaks of the message are kept.
    expect(article?.querySelector('.bd')?.textContent).toBe('A bad deploy.\nRolling back.');
    expect(article?.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-05T09:30:00.000Z');
  });

  it('shows scheduled maintenance with its window in UTC', () => {
    const article = doc.getElementById('n-mnt-1');
    expect(text(article)).toContain('Window: Mar 10, 2025, 14:00 to 16:00 UTC');
    expect(text(article)).toContain('Expect short write pauses.');
    const across = renderStatusPageHtml(
      view({
        scheduled: [{ ...scheduledMaintenance, ends_at: '2025-03-11T02:30:00.000Z' }],
      }),
      options,
    );
    expect(text(parse(across).getElementById('n-mnt-1'))).toContain(
      'Window: Mar 10, 2025, 14:00 to Mar 11, 2025, 02:30 UTC',
    );
    const order = [...doc.querySelectorAll('main h2')].map((h) => h.id);
    expect(order).toEqual(['active', 'scheduled', 'components', 'history']);
  });

  it('links each past incident to its permalink and carries its post-mortem', () => {
    const item = doc.querySelector('#history + ul.hs > li');
    expect(item?.querySelector('h3 a')?.getAttribute('href')).toBe('/status/acme/incidents/inc-0');
    expect(text(item)).toContain('Mar 1, 2025, 10:00 UTC to Mar 1, 2025, 12:00 UTC');
    expect(text(item)).toContain('All clear.');
    const postmortem = item?.querySelector('details.pm');
    expect(text(postmortem?.querySelector('summary'))).toBe('Post-mortem');
    expect(html).toContain('<h3>What happened</h3><p>A disk filled <em>up</em>.</p>');
    // Not on an incident still open.
    const open = renderStatusPageHtml(
      view({ recent: [{ ...resolvedIncident, open: true, status: 'monitoring' }] }),
      options,
    );
    expect(open).not.toContain('What happened');
  });

  it('reads well when empty, and on a custom domain (basePath "")', () => {
    const empty = renderStatusPageHtml(view({ components: [], active: [], scheduled: [], recent: [] }), {
      basePath: '',
    });
    const emptyDoc = parse(empty);
    expect(text(emptyDoc.querySelector('main'))).toContain('No components are listed yet.');
    expect(text(emptyDoc.querySelector('main'))).toContain('No recent incidents.');
    expect(emptyDoc.querySelector('link[rel="alternate"]')?.getAttribute('href')).toBe('/feed.atom');
    expect(emptyDoc.querySelector('header a')?.getAttribute('href')).toBe('/');
  });

  it('adds one live script, with the nonce, only when asked', () => {
    const live = renderStatusPageHtml(view(), {
      ...options,
      nonce: 'abc"123',
      liveUrl: '/api/status/acme/events</script><script>alert(1)//',
    });
    const liveDoc = parse(live);
    const scripts = liveDoc.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.getAttribute('nonce')).toBe('abc"123');
    expect(liveDoc.querySelector('style')?.getAttribute('nonce')).toBe('abc"123');
    const code = scripts[0]?.textContent ?? '';
    expect(code).toContain('new EventSource(u)');
    expect(code).toContain("fetch(location.href,{headers:{accept:'text/html'}");
    expect(code).toContain('new DOMParser()');
    expect(code).toContain('setInterval(refresh,30000)');
    expect(code).toContain('"/api/status/acme/events\\u003c/script\\u003e\\u003cscript\\u003ealert(1)//"');
    expect(() => new Function(code)).not.toThrow();
    expect(liveDoc.getElementById('lv')?.getAttribute('aria-live')).toBe('polite');
    // The main content is the same with or without it.
    expect(liveDoc.querySelector('main')?.innerHTML).toBe(doc.querySelector('main')?.innerHTML);
  });

  it('keeps a 20-component page small: one day is a few dozen bytes', () => {
    const components = Array.from({ length: 20 }, (_, i) =>
      component(`service-${i}`, {
        name: `Service number ${i}`,
        group: `Group ${i % 4}`,
        uptime_90d: 99.9,
        days: days({ 10: { uptime: 97.25, status: 'degraded_performance' }, 0: { uptime: null, status: 'no_data' } }),
      }),
    );
    const notices = Array.from({ length: 10 }, (_, i) => ({ ...resolvedIncident, id: `old-${i}` }));
    const page = renderStatusPageHtml(view({ components, recent: notices }), options);
    const raw = Buffer.byteLength(page);
    const gzipped = gzipSync(page).length;
    console.info(`20-component page: ${raw} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThan(60 * 1024);
    // 1800 days, each under 80 bytes with its label; the rest of the page under 25 KB.
    expect(raw).toBeLessThan(1800 * 80 + 25 * 1024);
    const day = /<li tabindex=0 class=o aria-label="[^"]*">/.exec(page)?.[0] ?? '';
    expect(day).toBe('<li tabindex=0 class=o aria-label="Dec 7, 2024: 100.00% uptime, operational">');
  });

  it('passes axe (contrast aside: jsdom has no layout)', async () => {
    const { default: axe } = await import('axe-core');
    document.replaceChild(document.adoptNode(doc.documentElement.cloneNode(true)), document.documentElement);
    const result = await axe.run(document, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });
});

describe('colours', () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };

  it.each(Object.entries(PALETTE))('%s mode reaches WCAG AA for text', (_, palette: Palette) => {
    for (const background of [palette.bg, palette.card]) {
      for (const foreground of [palette.fg, palette.muted, palette.link, ...Object.values(palette.status)]) {
        expect(contrast(foreground, background), `${foreground} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    // The button's text is the background on the link colour.
    expect(contrast(palette.bg, palette.link)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('renderNoticePageHtml', () => {
  it('shows one incident with its timeline and post-mortem', () => {
    const html = renderNoticePageHtml(view(), resolvedIncident, options);
    const doc = parse(html);
    expect(doc.title).toBe('API latency · Acme status');
    expect(text(doc.querySelector('h1'))).toBe('API latency');
    expect(doc.querySelector('main a')?.getAttribute('href')).toBe('/status/acme');
    expect(doc.querySelector('link[rel="alternate"]')?.getAttribute('href')).toBe('/status/acme/feed.atom');
    expect([...doc.querySelectorAll('ol.tl > li strong')].map(text)).toEqual(['Resolved', 'Investigating']);
    const postmortem = doc.querySelector('section.pm');
    expect(text(postmortem?.querySelector('h2'))).toBe('Post-mortem');
    expect(postmortem?.innerHTML).toContain('<h3>What happened</h3><p>A disk filled <em>up</em>.</p>');
    expect(text(doc.querySelector('.mt'))).toBe('Incident Resolved Affects Api');
  });

  it('escapes the notice and shows a maintenance window', () => {
    const html = renderNoticePageHtml(view(), activeIncident, options);
    expect(html).not.toContain(XSS);
    expect(parse(html).title).toBe(`Checkout ${XSS} errors · Acme status`);
    const maintenance = parse(renderNoticePageHtml(view(), scheduledMaintenance, options));
    expect(text(maintenance.querySelector('main'))).toContain('Window: Mar 10, 2025, 14:00 to 16:00 UTC');
    const bare = parse(renderNoticePageHtml(view(), notice('n'), options));
    expect(text(bare.querySelector('main'))).toContain('No updates yet.');
    expect(bare.querySelector('.pm')).toBeNull();
  });
});

describe('renderLockedPageHtml', () => {
  it('is a password form that works without scripts', () => {
    const html = renderLockedPageHtml({ title: `Acme ${XSS}`, unlockUrl: '/api/status/acme/unlock' });
    const doc = parse(html);
    expect(html).not.toContain(XSS);
    expect(text(doc.querySelector('h1'))).toBe(`Acme ${XSS}`);
    const form = doc.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.getAttribute('action')).toBe('/api/status/acme/unlock');
    const input = form?.querySelector('input');
    expect(input?.getAttribute('type')).toBe('password');
    expect(input?.getAttribute('name')).toBe('password');
    expect(doc.querySelector(`label[for="${input?.id}"]`)).not.toBeNull();
    expect(input?.hasAttribute('aria-invalid')).toBe(false);
    const code = doc.querySelector('script')?.textContent ?? '';
    expect(code).toContain("'content-type':'application/json'");
    expect(code).toContain('JSON.stringify({password:p.value})');
    expect(() => new Function(code)).not.toThrow();
  });

  it('shows the error and carries the nonce', () => {
    const html = renderLockedPageHtml({
      title: 'Acme',
      unlockUrl: '/api/status/acme/unlock',
      error: 'Wrong <password>',
      nonce: 'n1',
    });
    const doc = parse(html);
    expect(text(doc.querySelector('[role="alert"]'))).toBe('Wrong <password>');
    expect(doc.querySelector('input')?.getAttribute('aria-invalid')).toBe('true');
    expect(doc.querySelector('script')?.getAttribute('nonce')).toBe('n1');
    expect(doc.querySelector('style')?.getAttribute('nonce')).toBe('n1');
  });
});
