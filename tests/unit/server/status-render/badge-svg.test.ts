import { DOMParser } from '@xmldom/xmldom';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { shieldsEndpoint } from '../../../../src/contract/status-pages.js';
import { COMPONENT_STATUS_COLORS } from '../../../../src/domain/status-pages.js';
import {
  badgeHex,
  renderBadgeSvg,
  shieldsJson,
  statusBadge,
  textWidth,
  uptimeBadge,
} from '../../../../src/server/status-render/badge-svg.js';
import { XSS } from './fixtures.js';

/** xmldom's node lists are not iterable. */
function all(
  parent: { getElementsByTagNameNS(ns: string, name: string): { length: number; item(i: number): Element | null } },
  ns: string,
  name: string,
): Element[] {
  const nodes = parent.getElementsByTagNameNS(ns, name);
  return Array.from({ length: nodes.length }, (_, i) => nodes.item(i)!);
}

const SVG = 'http://www.w3.org/2000/svg';

function parseSvg(xml: string) {
  // saxes checks well-formedness strictly (xmldom forgives a lot); xmldom gives the DOM to look at.
  const errors: string[] = [];
  const strict = new SaxesParser({ xmlns: true });
  strict.on('error', (error) => errors.push(error.message));
  strict.write(xml).close();
  expect(errors).toEqual([]);
  const doc = new DOMParser().parseFromString(xml, 'image/svg+xml');
  return doc.documentElement!;
}

describe('renderBadgeSvg', () => {
  it('draws a flat badge: grey label, coloured message, named for screen readers', () => {
    const svg = parseSvg(renderBadgeSvg({ label: 'Payments', message: 'Operational', color: '#15803d' }));
    expect(svg.namespaceURI).toBe(SVG);
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe('Payments: Operational');
    expect(svg.getElementsByTagNameNS(SVG, 'title')[0]?.textContent).toBe('Payments: Operational');
    const rects = all(svg, SVG, 'rect').filter((r) => r.parentNode?.nodeName === 'g');
    const labelWidth = textWidth('Payments') + 10;
    const messageWidth = textWidth('Operational') + 10;
    expect(
      rects.slice(0, 2).map((r) => [r.getAttribute('x'), r.getAttribute('width'), r.getAttribute('fill')]),
    ).toEqual([
      ['', String(labelWidth), '#555'],
      [String(labelWidth), String(messageWidth), '#15803d'],
    ]);
    expect(svg.getAttribute('width')).toBe(String(labelWidth + messageWidth));
    expect(svg.getAttribute('height')).toBe('20');
    const texts = all(svg, SVG, 'text').map((t) => t.textContent);
    expect(texts).toEqual(['Payments', 'Payments', 'Operational', 'Operational']);
  });

  it('estimates text at 6.5 px a character', () => {
    expect(textWidth('')).toBe(0);
    expect(textWidth('abcd')).toBe(26);
    expect(textWidth('Operational')).toBe(72);
  });

  it('maps shields colour names to their hex, and refuses anything else', () => {
    expect(badgeHex('brightgreen')).toBe('#4c1');
    expect(badgeHex('green')).toBe('#97ca00');
    expect(badgeHex('yellow')).toBe('#dfb317');
    expect(badgeHex('orange')).toBe('#fe7d37');
    expect(badgeHex('red')).toBe('#e05d44');
    expect(badgeHex('lightgrey')).toBe('#9f9f9f');
    expect(badgeHex('ABCDEF')).toBe('#abcdef');
    expect(badgeHex('"/><script>')).toBe('#9f9f9f');
    expect(badgeHex('constructor')).toBe('#9f9f9f');
    const svg = renderBadgeSvg({ label: 'x', message: 'y', color: 'red' });
    expect(svg).toContain('fill="#e05d44"');
  });

  it('escapes the texts', () => {
    const xml = renderBadgeSvg({ label: `A ${XSS}`, message: 'a & "b"', color: 'green' });
    expect(xml).not.toContain(XSS);
    const svg = parseSvg(xml);
    expect(svg.getAttribute('aria-label')).toBe(`A ${XSS}: a & "b"`);
    expect(svg.getElementsByTagNameNS(SVG, 'script')).toHaveLength(0);
  });

  it('draws the message alone when the label is empty', () => {
    const svg = parseSvg(renderBadgeSvg({ label: '', message: 'up', color: 'green' }));
    expect(svg.getAttribute('aria-label')).toBe('up');
    expect(svg.getAttribute('width')).toBe(String(textWidth('up') + 10));
  });
});

describe('badges of a component', () => {
  it('says the status in its words and colour', () => {
    expect(statusBadge({ name: 'Payments', status: 'partial_outage' })).toEqual({
      label: 'Payments',
      message: 'Partial outage',
      color: COMPONENT_STATUS_COLORS.partial_outage,
    });
  });

  it('says the uptime in shields colours, "no data" when there is none', () => {
    expect(uptimeBadge({ name: 'API', uptime_90d: 99.95 })).toEqual({
      label: 'API uptime',
      message: '99.95% (90d)',
      color: 'brightgreen',
    });
    expect(uptimeBadge({ name: 'API', uptime_90d: 99.999 }).message).toBe('99.99% (90d)');
    expect(uptimeBadge({ name: 'API', uptime_90d: 96 }, 30)).toEqual({
      label: 'API uptime',
      message: '96.00% (30d)',
      color: 'yellow',
    });
    expect(uptimeBadge({ name: 'API', uptime_90d: null })).toEqual({
      label: 'API uptime',
      message: 'no data',
      color: 'lightgrey',
    });
    expect(renderBadgeSvg(uptimeBadge({ name: 'API', uptime_90d: 80 }))).toContain('fill="#e05d44"');
  });

  it('answers shields endpoint JSON', () => {
    const uptime = shieldsJson(uptimeBadge({ name: 'API', uptime_90d: 99.5 }));
    expect(uptime).toEqual({ schemaVersion: 1, label: 'API uptime', message: '99.50% (90d)', color: 'green' });
    const status = shieldsJson(statusBadge({ name: 'API', status: 'operational' }));
    expect(status).toEqual({ schemaVersion: 1, label: 'API', message: 'Operational', color: '15803d' });
    expect(shieldsEndpoint.parse(status)).toEqual(status);
  });
});
