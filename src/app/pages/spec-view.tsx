import { lazy, Suspense, useMemo } from 'react';
import { parse } from 'yaml';
import { Spinner } from '../components/status-screens.js';

const SwaggerView = lazy(() => import('./swagger-view.js'));

export type SpecParse = { kind: 'empty' } | { kind: 'error'; message: string } | { kind: 'spec'; spec: object };

/** An OpenAPI document from YAML or JSON (JSON is YAML): empty, a parse failure with its message, or the spec. */
export function parseSpec(text: string): SpecParse {
  if (!text.trim()) return { kind: 'empty' };
  try {
    const spec: unknown = parse(text, { prettyErrors: true });
    if (!spec || typeof spec !== 'object' || Array.isArray(spec))
      return { kind: 'error', message: 'The document is not an OpenAPI object.' };
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
  return (
    <Suspense fallback={<Spinner label="Loading API view" />}>
      <SwaggerView spec={parsed.spec} />
    </Suspense>
  );
}
