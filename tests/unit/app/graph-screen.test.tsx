// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceGraph } from '../../../src/contract/dependencies.js';
import {
  failNetworkFor,
  makeService,
  makeUser,
  renderApp,
  resetLocalDb,
  stubApi,
  violations,
  type Call,
} from './services-kit.js';

/**
 * jsdom has no canvas: cytoscape is replaced by a recorder of what the screen gives it (its elements, viewport and
 * handlers). Without a Worker the layout is the ring layout computed in the page.
 */
interface FakeCy {
  elements: Array<{ group: string; data: Record<string, unknown>; classes?: string[] }>;
  viewports: Array<{ zoom: number; pan: { x: number; y: number } }>;
  handlers: Map<string, (event: unknown) => void>;
  fitted: boolean;
  destroyed: boolean;
}
const drawings: FakeCy[] = [];

vi.mock('cytoscape', () => ({
  default: () => {
    const fake: FakeCy = { elements: [], viewports: [], handlers: new Map(), fitted: false, destroyed: false };
    drawings.push(fake);
    const cy = {
      on: (event: string, selector: string, handler: (event: unknown) => void) =>
        fake.handlers.set(`${event} ${selector}`, handler),
      batch: (run: () => void) => run(),
      add: (elements: FakeCy['elements']) => fake.elements.push(...elements),
      viewport: (viewport: FakeCy['viewports'][number]) => {
        fake.viewports.push(viewport);
        return cy;
      },
      width: () => 800,
      height: () => 600,
      fit: () => (fake.fitted = true),
      zoom: () => 1,
      center: () => cy,
      destroy: () => (fake.destroyed = true),
      destroyed: () => fake.destroyed,
    };
    return cy;
  },
}));

const me = makeUser('mia');
const checkout = makeService('checkout', { name: 'Checkout' });

const graphNode = (
  id: string,
  name: string,
  health: ServiceGraph['nodes'][number]['health'],
  dependencies: string[] = [],
  workspace: string | null = null,
) => ({
  id,
  handle: id.split(':').pop()!,
  name,
  workspace,
  health,
  thumbnail_url: null,
  dependencies,
  dependents: [],
});

function graphAt(depth: number, truncated = false): ServiceGraph {
  const nodes = [
    graphNode('storefront', 'Storefront', 'good', ['checkout']),
    graphNode('checkout', 'Checkout', 'warning', ['ledger', 'cloud:storage']),
    graphNode('ledger', 'Ledger', 'critical', depth > 1 ? ['bus'] : []),
    graphNode('cloud:storage', 'Object Storage', null, [], 'cloud'),
  ];
  if (depth > 1) nodes.push(graphNode('bus', 'Message Bus', 'maintenance'));
  return { nodes, truncated };
}

/** 250 services in a chain from checkout: big enough to be drawn in slices. */
function bigGraph(): ServiceGraph {
  const ids = ['checkout', ...Array.from({ length: 249 }, (_, i) => `s${i}`)];
  return {
    nodes: ids.map((id, i) => graphNode(id, id, 'good', i + 1 < ids.length ? [ids[i + 1]!] : [])),
    truncated: false,
  };
}

function graphApi({ truncated = false, big = false } = {}): Call[] {
  return stubApi(me, {
    handler: (call) => {
      if (call.method === 'GET' && call.path === '/api/services/checkout') return { status: 200, body: checkout };
      if (call.method === 'GET' && call.path === '/api/services/checkout/graph')
        return { status: 200, body: big ? bigGraph() : graphAt(Number(call.query.get('depth')), truncated) };
      return undefined;
    },
  });
}

const graphCalls = (calls: Call[]) =>
  calls.filter((call) => call.path === '/api/services/checkout/graph').map((call) => call.query.get('depth'));

async function drawn() {
  await waitFor(() => expect(document.querySelector('[data-ready="true"]')).toBeTruthy());
  return drawings.at(-1)!;
}

async function pickDepth(option: string) {
  fireEvent.click(screen.getByLabelText('Depth', { selector: 'input' }).closest('.p-dropdown')!);
  const listbox = await screen.findByRole('listbox', { hidden: true });
  fireEvent.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  drawings.length = 0;
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetLocalDb();
});

describe('the Service Graph screen', () => {
  it('draws the graph at depth 2 with health colours, the service bigger, remote services marked', async () => {
    const calls = graphApi();
    renderApp('/services/checkout/graph');
    expect(await screen.findByRole('heading', { name: 'Service Graph' })).toBeTruthy();
    const cy = await drawn();
    expect(graphCalls(calls)).toEqual(['2']);
    const container = document.querySelector('[data-node-count]')!;
    expect(container.getAttribute('data-node-count')).toBe('5');
    expect(container.getAttribute('data-edge-count')).toBe('4');
    expect(container.getAttribute('data-layout')).toBe('layered');
    expect((container as HTMLElement).style.height).toBe('600px');
    expect(
      screen.getByRole('img', { name: /Dependency graph of Checkout: 5 services and 4 dependencies/ }),
    ).toBeTruthy();

    const nodes = new Map(cy.elements.filter((e) => e.group === 'nodes').map((e) => [e.data.id, e]));
    expect(nodes.get('checkout')!.classes).toEqual(['h-warning', 'root']);
    expect(nodes.get('ledger')!.classes).toEqual(['h-critical']);
    expect(nodes.get('storefront')!.classes).toEqual(['h-good']);
    expect(nodes.get('bus')!.classes).toEqual(['h-maintenance']);
    expect(nodes.get('cloud:storage')!.classes).toEqual(['h-unknown', 'remote']);
    expect(nodes.get('cloud:storage')!.data.label).toBe('Object Storage\n(cloud)');
    const edges = cy.elements.filter((e) => e.group === 'edges').map((e) => `${e.data.source}>${e.data.target}`);
    expect(edges.sort()).toEqual(['checkout>cloud:storage', 'checkout>ledger', 'ledger>bus', 'storefront>checkout']);
    expect(cy.fitted).toBe(true);
    expect(screen.queryByText(/Graph truncated/)).toBeNull();

    // The graph in words, once opened: each service with its health, links for this workspace's.
    fireEvent.click(screen.getByText('Services in the graph (5)'));
    const list = await screen.findByRole('list', { name: 'Services in the graph' });
    expect(within(list).getByRole('link', { name: 'Ledger' }).getAttribute('href')).toBe('/services/ledger');
    expect(within(list).getByText('Object Storage (cloud)')).toBeTruthy();
    expect(within(list).queryByRole('link', { name: /Object Storage/ })).toBeNull();
    const ledger = list.querySelector('[data-node-id="ledger"]')!;
    expect(ledger.getAttribute('data-colour')).toBe('#b91c1c');
    expect(ledger.textContent).toContain('Critical');
    expect(list.querySelector('[data-node-id="cloud:storage"]')!.getAttribute('data-colour')).toBe('#6b7280');
    expect(await violations()).toEqual([]);
  });

  it('opens a service of this workspace when its node is tapped', async () => {
    graphApi();
    renderApp('/services/checkout/graph');
    const cy = await drawn();
    const tap = cy.handlers.get('tap node[remote = 0]')!;
    tap({ target: { data: (key: string) => (key === 'handle' ? 'ledger' : undefined) } });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/services/ledger'));
  });

  it('asks again at the depth chosen and draws the new graph', async () => {
    const calls = graphApi();
    renderApp('/services/checkout/graph');
    await drawn();
    await pickDepth('1');
    await waitFor(() => expect(graphCalls(calls)).toEqual(['2', '1']));
    await waitFor(() => expect(document.querySelector('[data-node-count="4"][data-ready="true"]')).toBeTruthy());
    expect(drawings[0]!.destroyed).toBe(true);
    await pickDepth('2');
    // Depth 2 was seen: drawn again without waiting, the default depth leaves the address bare.
    await waitFor(() => expect(document.querySelector('[data-node-count="5"][data-ready="true"]')).toBeTruthy());
  });

  it('adds a big graph in slices out of view, then opens it on the service', async () => {
    graphApi({ big: true });
    renderApp('/services/checkout/graph');
    const cy = await drawn();
    expect(cy.elements).toHaveLength(250 + 249);
    expect(cy.fitted).toBe(false);
    const [away, view] = cy.viewports;
    expect(cy.viewports).toHaveLength(2);
    expect(away!.pan.x).toBeLessThan(-1e6);
    expect(view!.pan.x).toBeGreaterThan(-1e6);
  });

  it('says when the graph was cut at 2,000 services', async () => {
    graphApi({ truncated: true });
    renderApp('/services/checkout/graph?depth=6');
    await drawn();
    expect(screen.getByText(/Graph truncated at 2,000 services/)).toBeTruthy();
  });

  it('says "Not available offline" for a graph never seen without a network', async () => {
    graphApi();
    failNetworkFor((method, path) => path === '/api/services/checkout/graph');
    renderApp('/services/checkout/graph');
    // The app's retry policy tries a fetch with no answer once more, a second later.
    expect(await screen.findByText('Not available offline', {}, { timeout: 5000 })).toBeTruthy();
  });
});
