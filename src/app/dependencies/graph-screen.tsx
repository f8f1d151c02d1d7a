import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type cytoscape from 'cytoscape';
import type { Core } from 'cytoscape';
import { Button } from 'primereact/button';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import type { ServiceGraph } from '../../contract/dependencies.js';
import { HEALTHS } from '../../domain/catalogue.js';
import {
  GRAPH_DEFAULT_DEPTH,
  GRAPH_MAX_DEPTH,
  GRAPH_NODE_LIMIT,
  graphEdgesOf,
  graphLayoutAlgorithm,
} from '../../domain/graph.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';
import { MessageCard, Spinner } from '../components/status-screens.js';
import { useOnline } from '../components/use-online.js';
import { servicePath } from '../routing/paths.js';
import { getServiceGraphQueryOptions } from './dependencies-api.js';
import {
  graphElements,
  graphStyle,
  healthColour,
  initialViewport,
  healthText,
  layoutInput,
  nodeName,
  UNKNOWN_HEALTH_COLOUR,
} from './graph-elements.js';
import { layoutGraphOffThread } from './graph-layout-client.js';

/**
 * cytoscape, fetched as the screen opens. A dynamic import makes it a chunk that exports its
 * default, byte for byte the chunk the layout worker loads for fcose: one file, precached once (the build checks:
 * scripts/bundle-budget.ts).
 */
let cytoscapeLoaded: Promise<typeof cytoscape> | undefined;
function loadCytoscape() {
  cytoscapeLoaded ??= import('cytoscape').then((module) => module.default);
  return cytoscapeLoaded;
}

/** Spec: the graph is 600px tall. */
export const GRAPH_HEIGHT = 600;
/** Narrower than this, the layers run downwards (a phone held upright). */
const NARROW = 640;
/**
 * Beyond this many elements (services and dependencies), the graph opens on the service unless all of it is
 * readable at once, comes in slices of SLICE elements a frame, and moves as a picture while panned or zoomed.
 */
const LARGE_GRAPH = 300;
const SLICE = 150;
const FIRST_SLICE = 50;
const DEPTHS = Array.from({ length: GRAPH_MAX_DEPTH }, (_, i) => String(i + 1));
export const GRAPH_NOT_LOADED = 'The graph could not be loaded';

function depthOf(value: string | null): number {
  const depth = Number(value);
  return Number.isInteger(depth) && depth >= 1 && depth <= GRAPH_MAX_DEPTH ? depth : GRAPH_DEFAULT_DEPTH;
}

/**
 * /services/:id/graph (spec/catalogue.md 2.1): the service's dependency graph to a chosen depth (1 to 6, default
 * 2, kept in the address as ?depth=), laid out in the worker and drawn with cytoscape. Opened offline, the graph
 * last seen at that depth is shown with when it was synced; one never seen is 'Not available offline'.
 */
export default function GraphScreen({ service }: { service: Service }) {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const depth = depthOf(params.get('depth'));
  const query = useQuery({
    ...getServiceGraphQueryOptions(api, service.handle, depth),
    // The graph at the last depth stays drawn while the next one loads.
    placeholderData: keepPreviousData,
  });
  const state = loadStateOf(query);
  // The drawing library comes while the graph does.
  useEffect(() => void loadCytoscape(), []);

  const changeDepth = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (Number(value) === GRAPH_DEFAULT_DEPTH) next.delete('depth');
        else next.set('depth', value);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="flex flex-column gap-3" aria-labelledby="graph-title">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 id="graph-title" className="text-2xl font-semibold m-0">
          Service Graph
        </h1>
        <div className="flex align-items-center gap-2">
          <LabelledSelect
            id="graph-depth"
            label="Depth"
            value={String(depth)}
            options={DEPTHS.map((value) => ({ label: value, value }))}
            onChange={changeDepth}
          />
        </div>
      </div>
      <GraphSynced query={query} handle={service.handle} />
      {state === 'pending' ? (
        <Spinner label="Loading graph" />
      ) : state === 'offline' ? (
        <NotAvailableOffline />
      ) : state === 'not-found' || !query.data ? (
        <MessageCard title={GRAPH_NOT_LOADED} icon="pi-sitemap" />
      ) : (
        <GraphView graph={query.data} service={service} loading={query.isPlaceholderData} />
      )}
    </section>
  );
}

/**
 * "Offline · last synced ...": the service frame says it already for the service; the graph says it as well only
 * when it was synced at another time (seen on another visit), or the frame is not saying it.
 */
function GraphSynced({
  query,
  handle,
}: {
  query: { data: unknown; isError: boolean; dataUpdatedAt: number };
  handle: string;
}) {
  const online = useOnline();
  const service = useQueryClient().getQueryState(keys.service(handle));
  const frameSaysIt =
    service?.data !== undefined &&
    (!online || service.status === 'error') &&
    Math.abs(service.dataUpdatedAt - query.dataUpdatedAt) < 60_000;
  return frameSaysIt ? null : <LastSynced query={query} />;
}

function GraphView({ graph, service, loading }: { graph: ServiceGraph; service: Service; loading: boolean }) {
  const root = service.handle;
  const edges = useMemo(() => graphEdgesOf(graph.nodes), [graph]);
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const [drawn, setDrawn] = useState<ServiceGraph | null>(null);
  const navigate = useNavigate();
  const open = useRef(navigate);
  open.current = navigate;

  // The drawing goes with the screen.
  useEffect(
    () => () => {
      cy.current?.destroy();
      cy.current = null;
    },
    [],
  );

  // Lay the graph out in the worker, then draw it at those positions. A cytoscape per graph (how a big graph is
  // drawn is set when cytoscape starts); the last one stays on screen until the next is ready.
  useEffect(() => {
    let current = true;
    const width = container.current?.clientWidth ?? NARROW;
    const input = layoutInput(graph, edges, root, width < NARROW ? 'DOWN' : 'RIGHT');
    void Promise.all([layoutGraphOffThread(input, root), loadCytoscape()]).then(async ([layout, cytoscape]) => {
      if (!current || !container.current) return;
      const large = graph.nodes.length + edges.length > LARGE_GRAPH;
      cy.current?.destroy();
      const drawing = cytoscape({
        container: container.current,
        layout: { name: 'preset' },
        style: graphStyle(edges.length),
        boxSelectionEnabled: false,
        autoungrabify: true,
        autounselectify: true,
        minZoom: 0.02,
        maxZoom: 3,
        textureOnViewport: large,
        hideEdgesOnViewport: large,
      });
      cy.current = drawing;
      drawing.on('tap', 'node[remote = 0]', (event) => {
        open.current(servicePath(String(event.target.data('handle'))));
      });
      // A pointer over a service that opens says so.
      drawing.on('mouseover', 'node[remote = 0]', () => container.current?.style.setProperty('cursor', 'pointer'));
      drawing.on('mouseout', 'node', () => container.current?.style.removeProperty('cursor'));
      const elements = graphElements(graph, edges, root, layout);
      if (large) {
        // A big graph comes in a slice per frame, looked at from afar (cytoscape styles and measures each slice in
        // its frame, and draws nothing out of view); then it opens on the service itself, readable.
        const view = initialViewport(layout.nodes, root, drawing.width(), drawing.height());
        drawing.viewport({ zoom: view.zoom, pan: { x: -1e7, y: -1e7 } });
        // The first frame also sets the drawing up (canvases, caches): it gets a small slice.
        for (let start = 0, size = FIRST_SLICE; start < elements.length; start += size, size = SLICE) {
          const slice = elements.slice(start, start + size);
          drawing.batch(() => {
            drawing.add(slice);
          });
          await nextFrame();
          if (!current || drawing.destroyed()) return;
        }
        drawing.viewport(view);
      } else {
        drawing.batch(() => {
          drawing.add(elements);
        });
        fit(drawing);
      }
      setDrawn(graph);
    });
    return () => {
      current = false;
    };
  }, [graph, edges, root]);

  const ready = drawn === graph;
  const algorithm = graphLayoutAlgorithm(graph.nodes.length, edges.length);
  const summary =
    `Dependency graph of ${service.name}: ${count(graph.nodes.length, 'service')} and ` +
    `${count(edges.length, 'dependency', 'dependencies')}. ` +
    'The list of services in the graph, below, names each one and its health.';

  return (
    <div className="flex flex-column gap-2">
      {graph.truncated && (
        <p className="m-0 text-700 flex align-items-center gap-2" role="note">
          <i className="pi pi-exclamation-triangle text-orange-600" aria-hidden="true" />
          Graph truncated at {GRAPH_NODE_LIMIT.toLocaleString('en-US')} services: the nearest are shown.
        </p>
      )}
      <div
        className="relative surface-card border-round shadow-1 overflow-hidden"
        style={{ height: GRAPH_HEIGHT }}
        data-node-count={graph.nodes.length}
        data-edge-count={edges.length}
        data-layout={algorithm}
        data-ready={ready ? 'true' : 'false'}
      >
        <div ref={container} role="img" aria-label={summary} className="absolute w-full h-full" />
        <div className="absolute flex flex-column gap-1" style={{ top: 8, right: 8 }}>
          {(
            [
              ['pi-plus', 'Zoom in', () => zoomBy(cy.current, 1.25)],
              ['pi-minus', 'Zoom out', () => zoomBy(cy.current, 0.8)],
              ['pi-expand', 'Fit the graph', () => cy.current && fit(cy.current)],
            ] as const
          ).map(([icon, label, act]) => (
            <Button
              key={icon}
              type="button"
              icon={`pi ${icon}`}
              rounded
              outlined
              size="small"
              className="surface-card"
              aria-label={label}
              onClick={act}
            />
          ))}
        </div>
        {(!ready || loading) && (
          <div className="absolute" style={{ top: 8, left: 8 }}>
            <Spinner label={loading ? 'Loading graph' : 'Laying out graph'} />
          </div>
        )}
      </div>
      <Legend />
      <NodeList graph={graph} root={root} />
    </div>
  );
}

/** After the next frame is drawn: cytoscape styles and draws what was added in its frame. */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Everything in view, but never blown up past life size for a graph of a few services. */
function fit(instance: Core) {
  instance.fit(undefined, 24);
  if (instance.zoom() > 1.2) {
    instance.zoom(1.2);
    instance.center();
  }
}

function zoomBy(instance: Core | null, factor: number) {
  if (!instance) return;
  const { width, height } = { width: instance.width(), height: instance.height() };
  instance.zoom({ level: instance.zoom() * factor, renderedPosition: { x: width / 2, y: height / 2 } });
}

function Legend() {
  return (
    <ul className="list-none m-0 p-0 flex flex-wrap gap-3 text-sm text-700" aria-label="Legend">
      {HEALTHS.map((health) => (
        <li key={health} className="flex align-items-center gap-1">
          <span className="inline-block border-circle" style={dot(healthColour(health))} aria-hidden="true" />
          {healthText(health)}
        </li>
      ))}
      <li className="flex align-items-center gap-1">
        <span className="inline-block border-circle" style={dot(UNKNOWN_HEALTH_COLOUR)} aria-hidden="true" />
        Unknown
      </li>
      <li className="flex align-items-center gap-1">
        <span
          className="inline-block border-circle"
          style={{ ...dot('transparent'), border: '2px dashed #374151' }}
          aria-hidden="true"
        />
        Linked workspace
      </li>
    </ul>
  );
}

function dot(colour: string) {
  return { width: 12, height: 12, background: colour };
}

/** The graph in words: every service with its health (and a link to those of this workspace), rendered once opened. */
function NodeList({ graph, root }: { graph: ServiceGraph; root: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-700">
        Services in the graph ({graph.nodes.length.toLocaleString('en-US')})
      </summary>
      {open && (
        <ul className="list-none m-0 mt-2 p-0 flex flex-column gap-1" aria-label="Services in the graph">
          {graph.nodes.map((node) => (
            <li
              key={node.id}
              className="flex align-items-center gap-2"
              data-node-id={node.id}
              data-health={node.health ?? 'unknown'}
              data-colour={healthColour(node.health)}
              data-root={node.id === root ? 'true' : undefined}
            >
              <span
                className="inline-block border-circle flex-shrink-0"
                style={dot(healthColour(node.health))}
                aria-hidden="true"
              />
              {node.workspace ? <span>{nodeName(node)}</span> : <Link to={servicePath(node.handle)}>{node.name}</Link>}
              <span className="text-600">{healthText(node.health)}</span>
              {node.id === root && <span className="text-600">(this service)</span>}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
