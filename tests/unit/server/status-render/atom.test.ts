import { DOMParser } from '@xmldom/xmldom';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { renderAtomFeed } from '../../../../src/server/status-render/atom.js';
import { XSS, activeIncident, notice, resolvedIncident, scheduledMaintenance } from './fixtures.js';

/** xmldom's node lists are not iterable. */
function all(
  parent: { getElementsByTagNameNS(ns: string, name: string): { length: number; item(i: number): Element | null } },
  ns: string,
  name: string,
): Element[] {
  const nodes = parent.getElementsByTagNameNS(ns, name);
  return Array.from({ length: nodes.length }, (_, i) => nodes.item(i)!);
}

const ATOM = 'http://www.w3.org/2005/Atom';

/** Parses strictly: any XML error fails the test. */
function parseXml(xml: string) {
  // saxes checks well-formedness strictly (xmldom forgives a lot); xmldom gives the DOM to look at.
  const errors: string[] = [];
  const strict = new SaxesParser({ xmlns: true });
  strict.on('error', (error) => errors.push(error.message));
  strict.write(xml).close();
  expect(errors).toEqual([]);
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  return doc;
}

const child = (parent: Element, name: string) => parent.getElementsByTagNameNS(ATOM, name)[0];
const childText = (parent: Element, name: string) => child(parent, name)?.textContent ?? null;

const options = {
  id: 'https://status.example.com/feed.atom',
  title: `Acme ${XSS} status`,
  selfUrl: 'https://status.example.com/feed.atom',
  pageUrl: 'https://status.example.com/',
  updated: '2025-03-05T09:00:00.000Z',
};

describe('renderAtomFeed', () => {
  const xml = renderAtomFeed({ ...options, notices: [resolvedIncident, activeIncident, scheduledMaintenance] });
  const feed = parseXml(xml).documentElement!;

  it('is an Atom 1.0 feed with its required elements', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(feed.localName).toBe('feed');
    expect(feed.namespaceURI).toBe(ATOM);
    expect(childText(feed, 'id')).toBe(options.id);
    expect(childText(feed, 'title')).toBe(`Acme ${XSS} status`);
    // The newest entry changed after the given time: the feed says so.
    expect(childText(feed, 'updated')).toBe('2025-03-05T09:30:00.000Z');
    expect(childText(child(feed, 'author')!, 'name')).toBe(`Acme ${XSS} status`);
    const links = all(feed, ATOM, 'link').filter((l) => l.parentNode === feed);
    expect(links.map((l) => [l.getAttribute('rel'), l.getAttribute('href')])).toEqual([
      ['self', options.selfUrl],
      ['alternate', options.pageUrl],
    ]);
    expect(xml).not.toContain(XSS);
  });

  it('has one entry per notice, the most recently updated first', () => {
    const entries = all(feed, ATOM, 'entry');
    expect(entries.map((e) => childText(e, 'title'))).toEqual([
      `[Identified] Checkout ${XSS} errors`,
      '[Scheduled] Database upgrade',
      '[Resolved] API latency',
    ]);
    const [first, , last] = entries;
    expect(childText(first!, 'id')).toBe('https://status.example.com/incidents/inc-1');
    expect(child(first!, 'link')?.getAttribute('href')).toBe('https://status.example.com/incidents/inc-1');
    expect(childText(first!, 'updated')).toBe('2025-03-05T09:30:00.000Z');
    expect(childText(first!, 'published')).toBe('2025-03-05T08:00:00.000Z');
    expect(childText(last!, 'updated')).toBe('2025-03-01T12:00:00.000Z');
  });

  it('carries the timeline, newest first, as escaped HTML', () => {
    const entries = all(feed, ATOM, 'entry');
    const content = child(entries[0]!, 'content')!;
    expect(content.getAttribute('type')).toBe('html');
    const html = content.textContent ?? '';
    expect(html.indexOf('Identified')).toBeLessThan(html.indexOf('Investigating'));
    expect(html).toContain('<strong>Identified</strong> (Mar 5, 2025, 09:30 UTC)<br>A bad deploy.<br>Rolling back.');
    // The user's text is escaped inside the HTML too.
    expect(html).toContain('Looking into &lt;b&gt;failed&lt;/b&gt; payments');
    expect(childText(entries[1]!, 'content')).toContain(
      'Window:</strong> Mar 10, 2025, 14:00 UTC to Mar 10, 2025, 16:00 UTC',
    );
    expect(childText(entries[2]!, 'content')).toContain('<h2>Post-mortem</h2><h3>What happened</h3>');
  });

  it('resolves relative notice URLs against the page, and stays valid XML whatever the text holds', () => {
    const odd = notice('x&y', {
      title: 'Bell \u0007 & <tags> "quotes" \ud800',
      url: '/status/acme/incidents/x%26y',
      updates: [{ status: 'investigating', body: ']]> \u0000 end', created_at: '2025-03-05T08:00:00.000Z' }],
    });
    const doc = parseXml(renderAtomFeed({ ...options, notices: [odd] }));
    const entry = doc.getElementsByTagNameNS(ATOM, 'entry')[0]!;
    expect(childText(entry, 'title')).toBe('[Investigating] Bell  & <tags> "quotes" ');
    expect(childText(entry, 'id')).toBe('https://status.example.com/status/acme/incidents/x%26y');
    expect(childText(entry, 'content')).toContain(']]&gt;  end');
  });

  it('is a valid empty feed without notices', () => {
    const doc = parseXml(renderAtomFeed({ ...options, notices: [] }));
    expect(doc.getElementsByTagNameNS(ATOM, 'entry')).toHaveLength(0);
    expect(childText(doc.documentElement!, 'updated')).toBe(options.updated);
  });
});
