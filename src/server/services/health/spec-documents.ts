/**
 * Published OpenAPI specs as the checks read them (docs/decisions.md#spec-checks): each published version is parsed
 * once, and its response schemas compiled once (runner/response-schemas.ts compiles each lazily), keyed by the page and
 * its published_at, so a new version is a new entry and an old one falls out of the bounded cache.
 */
import { parse } from 'yaml';
import { specOperations, type SpecOperationRef } from '../../../domain/openapi-probes.js';
import { specSchemas, type SpecSchemas } from '../../../runner/response-schemas.js';
import { BoundedMap } from '../../cache/bounded-map.js';
import type { PageRow } from '../../db/schema.js';

export interface PublishedSpec {
  pageId: string;
  publishedAt: string;
  /** The page's published title: a spec page's title is its version (domain/pages.ts titleAlias). */
  version: string;
  /** The parsed document; null when the text no longer parses (published before validation, or edited by hand). */
  doc: unknown;
  operations(): readonly SpecOperationRef[];
  schemas(): SpecSchemas;
}

/** Versions kept parsed and compiled at once; a runner holding checks of more pages parses again. */
const KEPT = 200;
const cache = new BoundedMap<string, PublishedSpec>({ maxWeight: KEPT });

type SpecPage = Pick<PageRow, 'id' | 'section' | 'published_at' | 'published_content' | 'published_title' | 'title'>;

/** The published version of an OpenAPI spec page; null for another section or an unpublished page. */
export function publishedSpec(page: SpecPage): PublishedSpec | null {
  if (page.section !== 'open-api-specs' || page.published_at === null || page.published_content === null) return null;
  const key = `${page.id}@${page.published_at}`;
  const kept = cache.get(key);
  if (kept) return kept;
  let doc: unknown = null;
  try {
    doc = parse(page.published_content);
  } catch {
    doc = null;
  }
  let operations: readonly SpecOperationRef[] | undefined;
  let schemas: SpecSchemas | undefined;
  const spec: PublishedSpec = {
    pageId: page.id,
    publishedAt: page.published_at,
    version: page.published_title ?? page.title,
    doc,
    operations: () => (operations ??= specOperations(doc)),
    schemas: () => (schemas ??= specSchemas(doc)),
  };
  cache.set(key, spec);
  return spec;
}
