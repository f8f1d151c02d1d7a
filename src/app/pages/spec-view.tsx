import { useEffect, useMemo, useState } from 'react';
import { parse } from 'yaml';
import { isSpecObject, SPEC_NOT_AN_OBJECT } from '../../domain/pages.js';
import { Spinner } from '../components/status-screens.js';
import { useOnline } from '../components/use-online.js';
// Types only: the module itself is loaded on demand below.
import type SwaggerView from './swagger-view.js';

type SwaggerModule = { default: typeof SwaggerView };

/** Said instead of the API view when its chunk cannot be loaded (offline, not kept on this device). */
export const API_VIEW_OFFLINE = 'The interactive API view is not available offline on this device yet.';

let swaggerModule: Promise<SwaggerModule> | null = null;

/**
 * The API view's chunk, loaded once. It is not precached (vite.config.ts): the service worker keeps it once
 * loaded, so it can be missing offline (never opened, or a new version since). A failed load is tried again.
 */
function loadSwaggerView(): Promise<SwaggerModule> {
  swaggerModule ??= import('./swagger-view.js').catch((error: unknown) => {
    swaggerModule = null;
    throw error;
  });
  return swaggerModule;
}

/** swagger-ui once its chunk is here; without it (offline), the spec as written; tried again when back online. */
function ApiView({ spec, text }: { spec: object; text: string }) {
  const online = useOnline();
  const [loaded, setLoaded] = useState<{ View: typeof SwaggerView } | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    loadSwaggerView().then(
      (module) => live && setLoaded({ View: module.default }),
      () => live && setLoaded('failed'),
    );
    return () => {
      live = false;
    };
  }, [online]);
  if (loaded === null) return <Spinner label="Loading API view" />;
  if (loaded !== 'failed') return <loaded.View spec={spec} />;
  return (
    <div className="flex flex-column gap-2">
      <p role="status" className="m-0 p-3 border-round surface-100 text-700">
        {API_VIEW_OFFLINE} The spec as written:
      </p>
      <pre
        className="m-0 p-3 border-round surface-100 text-sm"
        style={{ maxHeight: '32rem', overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        tabIndex={0}
        aria-label="Spec as written"
      >
        {text}
      </pre>
    </div>
  );
}

export type SpecParse = { kind: 'empty' } | { kind: 'error'; message: string } | { kind: 'spec'; spec: object };

/** An OpenAPI document from YAML or JSON (JSON is YAML): empty, a parse failure with its message, or the spec. */
export function parseSpec(text: string): SpecParse {
  if (!text.trim()) return { kind: 'empty' };
  try {
    const spec: unknown = parse(text, { prettyErrors: true });
    if (!isSpecObject(spec)) return { kind: 'error', message: SPEC_NOT_AN_OBJECT };
    return { kind: 'spec', spec };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * An OpenAPI spec page (spec/catalogue.md 2.1): 'Parsing Error' with the parser's message, 'No config provided'
 * without a spec, else the interactive API view (swagger-ui, loaded only here).
 */
export function SpecView({ text }: { text: string }) {
  const parsed = useMemo(() => parseSpec(text), [text]);
  if (parsed.kind === 'empty')
    return (
      <div role="status" className="p-3 border-round surface-100 text-700">
        No config provided
      </div>
    );
  if (parsed.kind === 'error')
    return (
      <div role="alert" className="p-3 border-round border-1 border-red-300 bg-red-50 text-red-900">
        <h2 className="text-lg font-semibold m-0 mb-2">Parsing Error</h2>
        <pre className="m-0 text-sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {parsed.message}
        </pre>
      </div>
    );
  return <ApiView spec={parsed.spec} text={text} />;
}
