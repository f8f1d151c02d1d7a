/**
 * The catalogue as code (docs/decisions.md#catalogue-as-code, issue 29): Backstage descriptor files
 * (`catalog-info.yaml`, several documents per file) read into the entities Beacon keeps: a `Component` is a service, a
 * `Group` a team, an `API` of type openapi a spec page on the services that provide it, a `Location` more files. Kinds
 * Beacon has no place for are skipped and said so, never errors. Every problem names its file and line, and one bad
 * entity never hides the others. Pure: the plan against the catalogue, and the writes, are the server's.
 */
import { constructFromEvents, CORE_SCHEMA, EVENT_DOCUMENT, EVENT_MAPPING, parseEvents } from 'js-yaml';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { Stage, Visibility } from './catalogue.js';
import { endpointError } from './check-targets.js';
import { HANDLE_PATTERN, SLACK_CHANNEL_PATTERN } from './validators.js';
import { isSloTarget, SLO_WINDOW_DAYS, type SloWindowDays } from './slo.js';

export const DESCRIPTOR_API_VERSIONS = ['backstage.io/v1alpha1', 'backstage.io/v1beta1', 'beacon.io/v1'] as const;
/** Backstage's kinds Beacon has no place for: reported as skipped. */
export const SKIPPED_KINDS = ['System', 'Domain', 'Resource', 'User', 'Template'] as const;

/** Backstage's lifecycles, as Beacon's stages. */
export const LIFECYCLE_STAGES: Readonly<Record<string, Stage>> = {
  experimental: 'development',
  production: 'live',
  deprecated: 'eol',
};

export const ANNOTATIONS = {
  visibility: 'beacon.io/visibility',
  healthCheckUrl: 'beacon.io/health-check-url',
  slo: 'beacon.io/slo',
  slackChannel: 'beacon.io/slack-channel',
  previousNames: 'beacon.io/previous-names',
} as const;

export interface DescriptorFile {
  /** As the source names it (relative to the source's root), with `/` between folders. */
  path: string;
  content: string;
}

/** Where an entity, or a problem, is: the file and the line (1-based). */
export interface SourcePlace {
  path: string;
  line: number;
}

export interface DescriptorProblem extends SourcePlace {
  message: string;
}

/** A reference to another entity: `[kind:][namespace/]name`, lower-cased. */
export interface EntityRef {
  kind: string;
  namespace: string;
  name: string;
}

export interface ServiceEntity {
  kind: 'service';
  handle: string;
  name: string;
  description: string;
  /** The owning team's handle. */
  owner: string;
  stage: Stage;
  visibility: Visibility | null;
  links: Array<{ name: string; url: string }>;
  /** Services of this workspace (namespace `default`), or of another (the namespace names the workspace). */
  dependsOn: Array<{ workspace: string | null; handle: string }>;
  /** The handles of the APIs it provides (their specs become its spec pages). */
  providesApis: string[];
  healthCheckUrl: string | null;
  slo: { target: number; window_days: SloWindowDays } | null;
  slackChannel: string | null;
  previousNames: string[];
  place: SourcePlace;
}

export interface TeamEntity {
  kind: 'team';
  handle: string;
  name: string;
  description: string;
  parent: string | null;
  /** User handles (the users that exist in the workspace become members); null when the file names none. */
  members: string[] | null;
  links: Array<{ name: string; url: string }>;
  previousNames: string[];
  place: SourcePlace;
}

export interface ApiEntity {
  kind: 'api';
  handle: string;
  name: string;
  description: string;
  owner: string;
  /** The OpenAPI document's text (inline, or read from the file `$text` names). */
  definition: string;
  place: SourcePlace;
}

export type CatalogEntity = ServiceEntity | TeamEntity | ApiEntity;

export interface SkippedEntity extends SourcePlace {
  kind: string;
  name: string;
  reason: string;
}

/** An entity that could not be read: what it would have been (when that much is known), and why not. */
export interface ErroredEntity {
  kind: 'service' | 'team' | 'api' | null;
  handle: string | null;
  errors: DescriptorProblem[];
}

export interface ReadDescriptors {
  entities: CatalogEntity[];
  skipped: SkippedEntity[];
  errored: ErroredEntity[];
  /** Problems of a whole file or document (not YAML, no kind), not of one entity. */
  problems: DescriptorProblem[];
}

const NAME_PATTERN = /^[a-z0-9A-Z]+(?:[-_.][a-z0-9A-Z]+)*$/;
const MAX_NAME = 63;

/** Parses `[kind:][namespace/]name`, lower-cased; `defaultKind` when the reference names none. */
export function parseEntityRef(ref: string, defaultKind: string): EntityRef | null {
  const match = /^(?:([A-Za-z]+):)?(?:([^:/\s]+)\/)?([^:/\s]+)$/.exec(ref.trim());
  if (!match) return null;
  return {
    kind: (match[1] ?? defaultKind).toLowerCase(),
    namespace: (match[2] ?? 'default').toLowerCase(),
    name: match[3]!.toLowerCase(),
  };
}

/** `a/b/../c.yaml` against the folder of `from`: the path a Location's target names, or null outside the root. */
export function resolveTarget(from: string, target: string): string | null {
  const parts = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const part of target.replace(/^\.\//, '').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** "99.9% 30d", "99.9/28d" or "99.95 over 7d". */
export function parseSloAnnotation(value: string): { target: number; window_days: SloWindowDays } | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*(?:\/|over)?\s*(\d+)\s*d(?:ays?)?\s*$/i.exec(value);
  if (!match) return null;
  const target = Number(match[1]);
  const days = Number(match[2]) as SloWindowDays;
  if (!isSloTarget(target) || !SLO_WINDOW_DAYS.includes(days)) return null;
  return { target, window_days: days };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The line of `keys` within a parsed document: a value's own line, a mapping's or a list's at its key (where a
 * missing field would go); as far as the path exists, else the document's first line.
 */
function lineInDocument(doc: Document, lines: LineCounter, start: number, keys: ReadonlyArray<string | number>) {
  let node: unknown = doc.contents;
  let line = start;
  const at = (offset: number | undefined) => (offset === undefined ? line : lines.linePos(offset).line);
  for (const key of keys) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
      if (!pair) return line;
      line = at(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
      line = at((node as { range?: [number, number, number] } | undefined)?.range?.[0]);
    } else return line;
  }
  return isScalar(node) ? at(node.range?.[0]) : line;
}

/** One document being read: its problems collected with the line of the field they are about. */
class DocumentReader {
  readonly errors: DescriptorProblem[] = [];

  constructor(
    private readonly locate: (keys: ReadonlyArray<string | number>) => number,
    readonly path: string,
    readonly line: number,
  ) {}

  lineOf(keys: ReadonlyArray<string | number>): number {
    return this.locate(keys);
  }

  fail(keys: ReadonlyArray<string | number>, message: string): void {
    this.errors.push({ path: this.path, line: this.lineOf(keys), message });
  }
}

function linksOf(reader: DocumentReader, metadata: Json): Array<{ name: string; url: string }> {
  const links = metadata.links;
  if (links === undefined) return [];
  if (!Array.isArray(links)) {
    reader.fail(['metadata', 'links'], 'metadata.links must be a list of { url, title }');
    return [];
  }
  const out: Array<{ name: string; url: string }> = [];
  links.forEach((link, index) => {
    const url = isObject(link) ? text(link.url) : undefined;
    if (!url || !/^https?:\/\/\S+$/i.test(url)) {
      reader.fail(['metadata', 'links', index], `Link ${index + 1} needs a url starting with http:// or https://`);
      return;
    }
    out.push({ name: (isObject(link) && text(link.title)) || url, url });
  });
  return out;
}

function refsOf(reader: DocumentReader, spec: Json, field: string, defaultKind: string): EntityRef[] {
  const value = spec[field];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    reader.fail(['spec', field], `spec.${field} must be a list of entity references`);
    return [];
  }
  const refs: EntityRef[] = [];
  (value as string[]).forEach((item, index) => {
    const ref = parseEntityRef(item, defaultKind);
    if (ref) refs.push(ref);
    else reader.fail(['spec', field, index], `"${item}" is not an entity reference ([kind:][namespace/]name)`);
  });
  return refs;
}

/** The owner: a group (team) reference; the team's handle, or null after saying why not. */
function ownerOf(reader: DocumentReader, spec: Json): string | null {
  const owner = text(spec.owner);
  if (!owner) {
    reader.fail(['spec'], 'spec.owner is required: the team (Group) that owns it');
    return null;
  }
  const ref = parseEntityRef(owner, 'group');
  if (!ref || ref.kind !== 'group') {
    reader.fail(['spec', 'owner'], `spec.owner "${owner}" must name a Group: Beacon's owners are teams`);
    return null;
  }
  return ref.name;
}

function previousNamesOf(reader: DocumentReader, annotations: Json): string[] {
  const value = text(annotations[ANNOTATIONS.previousNames]);
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!HANDLE_PATTERN.test(name)) {
      reader.fail(['metadata', 'annotations', ANNOTATIONS.previousNames], `"${name}" is not a handle`);
    }
  }
  return names;
}

function serviceOf(reader: DocumentReader, base: EntityBase, spec: Json, annotations: Json): ServiceEntity | null {
  const owner = ownerOf(reader, spec);
  const lifecycle = text(spec.lifecycle)?.toLowerCase();
  const stage = lifecycle === undefined ? 'development' : LIFECYCLE_STAGES[lifecycle];
  if (!stage) {
    reader.fail(
      ['spec', 'lifecycle'],
      `spec.lifecycle "${spec.lifecycle as string}" is not one Beacon knows: experimental, production or deprecated`,
    );
  }
  const visibilityText = text(annotations[ANNOTATIONS.visibility]);
  const visibility = (['public', 'workspace', 'owner'] as const).find((v) => v === visibilityText) ?? null;
  if (visibilityText !== undefined && !visibility) {
    reader.fail(
      ['metadata', 'annotations', ANNOTATIONS.visibility],
      `${ANNOTATIONS.visibility} must be public, workspace or owner`,
    );
  }
  const healthCheckUrl = text(annotations[ANNOTATIONS.healthCheckUrl]) ?? null;
  if (healthCheckUrl !== null && (healthCheckUrl.length > 2000 || endpointError('http', healthCheckUrl))) {
    reader.fail(
      ['metadata', 'annotations', ANNOTATIONS.healthCheckUrl],
      `${ANNOTATIONS.healthCheckUrl} must be a URL starting with http:// or https://`,
    );
  }
  const sloText = text(annotations[ANNOTATIONS.slo]);
  const slo = sloText === undefined ? null : parseSloAnnotation(sloText);
  if (sloText !== undefined && !slo) {
    reader.fail(
      ['metadata', 'annotations', ANNOTATIONS.slo],
      `${ANNOTATIONS.slo} must read like "99.9% 30d": a target below 100 over 7, 28 or 30 days`,
    );
  }
  const channel = text(annotations[ANNOTATIONS.slackChannel])?.trim().replace(/^#/, '') ?? null;
  if (channel !== null && !SLACK_CHANNEL_PATTERN.test(channel)) {
    reader.fail(
      ['metadata', 'annotations', ANNOTATIONS.slackChannel],
      `${ANNOTATIONS.slackChannel} must be a Slack channel id or name, such as C0123ABCD or #payments`,
    );
  }
  const dependsOn: ServiceEntity['dependsOn'] = [];
  for (const ref of refsOf(reader, spec, 'dependsOn', 'component')) {
    // Resources (databases, queues) have no place in Beacon: left out, as their kind is.
    if (ref.kind !== 'component') continue;
    dependsOn.push({ workspace: ref.namespace === 'default' ? null : ref.namespace, handle: ref.name });
  }
  const providesApis = refsOf(reader, spec, 'providesApis', 'api').map((ref) => ref.name);
  if (!owner || !stage || reader.errors.length > 0) return null;
  return {
    kind: 'service',
    ...base,
    owner,
    stage,
    visibility,
    dependsOn,
    providesApis,
    healthCheckUrl,
    slo,
    slackChannel: channel,
    previousNames: previousNamesOf(reader, annotations),
  };
}

interface EntityBase {
  handle: string;
  name: string;
  description: string;
  links: Array<{ name: string; url: string }>;
  place: SourcePlace;
}

function teamOf(reader: DocumentReader, base: EntityBase, spec: Json, annotations: Json): TeamEntity | null {
  const parentText = text(spec.parent);
  const parent = parentText === undefined ? null : parseEntityRef(parentText, 'group');
  if (parentText !== undefined && (!parent || parent.kind !== 'group')) {
    reader.fail(['spec', 'parent'], `spec.parent "${parentText}" must name a Group`);
  }
  const members = spec.members === undefined ? null : refsOf(reader, spec, 'members', 'user').map((ref) => ref.name);
  const previousNames = previousNamesOf(reader, annotations);
  if (reader.errors.length > 0) return null;
  return { kind: 'team', ...base, parent: parent?.name ?? null, members, previousNames };
}

function apiOf(
  reader: DocumentReader,
  base: EntityBase,
  spec: Json,
  files: ReadonlyMap<string, string>,
): ApiEntity | 'skip' | null {
  if (text(spec.type)?.toLowerCase() !== 'openapi') return 'skip';
  const owner = ownerOf(reader, spec);
  let definition: string | undefined;
  if (typeof spec.definition === 'string') definition = spec.definition;
  else if (isObject(spec.definition) && typeof spec.definition.$text === 'string') {
    const target = resolveTarget(reader.path, spec.definition.$text);
    definition = target === null ? undefined : files.get(target);
    if (definition === undefined) {
      reader.fail(['spec', 'definition'], `The definition file "${spec.definition.$text}" is not among the files`);
    }
  } else reader.fail(['spec', 'definition'], 'spec.definition must be the OpenAPI document, or { $text: ./file }');
  if (!owner || definition === undefined || reader.errors.length > 0) return null;
  const { handle, name, description, place } = base;
  return { kind: 'api', handle, name, description, place, owner, definition };
}

const ENTITY_KINDS: Readonly<Record<string, 'service' | 'team' | 'api'>> = {
  component: 'service',
  group: 'team',
  api: 'api',
};

/**
 * Reads a set of descriptor files: every document of every file the set holds. Locations only say which files
 * belong (their targets must be in the set, else an error names them); `files` is what a source's root holds.
 */
export function readDescriptors(files: readonly DescriptorFile[]): ReadDescriptors {
  const out: ReadDescriptors = { entities: [], skipped: [], errored: [], problems: [] };
  const contents = new Map(files.map((file) => [file.path, file.content]));
  const parsed = files.map((file) => ({ file, docs: parseDescriptorFile(file.content) }));
  // A file an API's definition names is an OpenAPI document, not a descriptor.
  const definitions = new Set<string>();
  for (const { file, docs } of parsed) {
    for (const { json } of docs) {
      const spec = isObject(json) && text(json.kind)?.toLowerCase() === 'api' ? json.spec : undefined;
      const $text = isObject(spec) && isObject(spec.definition) ? text(spec.definition.$text) : undefined;
      const target = $text === undefined ? null : resolveTarget(file.path, $text);
      if (target !== null) definitions.add(target);
    }
  }
  for (const { file, docs } of parsed) {
    if (!definitions.has(file.path)) readFile(file, docs, contents, out);
  }
  // The same kind and name twice: the first stands, the others are errors naming it.
  const first = new Map<string, CatalogEntity>();
  out.entities = out.entities.filter((entity) => {
    const key = `${entity.kind}:${entity.handle}`;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, entity);
      return true;
    }
    out.errored.push({
      kind: entity.kind,
      handle: entity.handle,
      errors: [
        {
          ...entity.place,
          message: `${entity.handle} is already described at ${earlier.place.path}:${earlier.place.line}`,
        },
      ],
    });
    return false;
  });
  return out;
}

/** One document of a file as YAML gave it: its data, where its content starts, and how to find a field's line. */
interface ParsedDocument {
  /** The data; a YAML error or a refused expansion as a problem instead. */
  json: unknown;
  problem: { line: number; message: string } | null;
  start: number;
  empty: boolean;
  locate: (keys: ReadonlyArray<string | number>) => number;
}

/** The documents of a file through `yaml`'s document model: exact lines for every field, and its YAML errors. */
function parseWithDocuments(content: string): ParsedDocument[] {
  const lines = new LineCounter();
  const parsedDocs = parseAllDocuments(content, { lineCounter: lines, uniqueKeys: true });
  const docs = Array.isArray(parsedDocs) ? parsedDocs : [parsedDocs];
  return docs.map((doc) => {
    const start = doc.contents?.range ? lines.linePos(doc.contents.range[0]).line : 1;
    const locate = (keys: ReadonlyArray<string | number>) => lineInDocument(doc, lines, start, keys);
    const base = { start, empty: doc.contents === null, locate };
    if (doc.errors.length > 0) {
      const [error] = doc.errors;
      const message = `Not valid YAML: ${error!.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
      return { ...base, json: null, problem: { line: error!.linePos?.[0].line ?? start, message } };
    }
    try {
      return { ...base, json: doc.toJS({ maxAliasCount: 1000 }), problem: null };
    } catch (error) {
      // Too many aliases (a "billion laughs" file): the document is refused, not the whole plan.
      const reason = error instanceof Error ? error.message : String(error);
      return { ...base, json: null, problem: { line: start, message: `Not valid YAML: ${reason}` } };
    }
  });
}

/**
 * The documents of a file. `js-yaml` reads plain descriptor files several times faster than `yaml`'s document
 * model (an import of 10,000 components is mostly YAML); it gives where each document starts, and a field's line
 * is looked up in the document model only when a problem needs it. A file it refuses (a YAML error, a duplicate
 * key, any alias) or whose documents are not all mappings is read through the document model, which says why.
 */
function parseDescriptorFile(content: string): ParsedDocument[] {
  let events: ReturnType<typeof parseEvents>;
  let values: unknown[];
  try {
    events = parseEvents(content, {});
    values = constructFromEvents(events, { source: content, schema: CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return parseWithDocuments(content);
  }
  const starts: number[] = [];
  events.forEach((event, index) => {
    const root = events[index + 1];
    if (event.type === EVENT_DOCUMENT && root?.type === EVENT_MAPPING) starts.push(root.start);
  });
  if (starts.length !== values.length || !values.every(isObject)) return parseWithDocuments(content);
  let modelled: ParsedDocument[] | undefined;
  let line = 1;
  let offset = 0;
  return values.map((json, index) => {
    for (; offset < starts[index]!; offset += 1) if (content.charCodeAt(offset) === 10) line += 1;
    const start = line;
    const locate = (keys: ReadonlyArray<string | number>) =>
      (modelled ??= parseWithDocuments(content))[index]?.locate(keys) ?? start;
    return { json, problem: null, start, empty: false, locate };
  });
}

function readFile(
  file: DescriptorFile,
  docs: readonly ParsedDocument[],
  files: ReadonlyMap<string, string>,
  out: ReadDescriptors,
): void {
  for (const doc of docs) {
    if (doc.problem) {
      out.problems.push({ path: file.path, ...doc.problem });
      continue;
    }
    if (doc.empty) continue;
    if (!isObject(doc.json)) {
      out.problems.push({
        path: file.path,
        line: doc.start,
        message: 'A descriptor must be a mapping (kind, metadata, spec)',
      });
      continue;
    }
    readDocument(new DocumentReader(doc.locate, file.path, doc.start), doc.json, files, out);
  }
}

function readDocument(reader: DocumentReader, json: Json, files: ReadonlyMap<string, string>, out: ReadDescriptors) {
  const kind = text(json.kind);
  const metadata = isObject(json.metadata) ? json.metadata : {};
  const rawName = text(metadata.name);
  const place = { path: reader.path, line: reader.line };
  if (!kind) {
    out.problems.push({ ...place, message: 'The document has no kind' });
    return;
  }
  const entityKind = ENTITY_KINDS[kind.toLowerCase()];
  if (kind.toLowerCase() === 'location') {
    readLocation(reader, json, files, out);
    return;
  }
  if (!entityKind) {
    out.skipped.push({
      ...place,
      kind,
      name: rawName ?? '',
      reason: `Beacon keeps no ${kind}: skipped`,
    });
    return;
  }
  const apiVersion = text(json.apiVersion);
  if (!apiVersion || !(DESCRIPTOR_API_VERSIONS as readonly string[]).includes(apiVersion)) {
    reader.fail(['apiVersion'], `apiVersion must be one of ${DESCRIPTOR_API_VERSIONS.join(', ')}`);
  }
  let handle: string | null = null;
  if (!rawName) reader.fail(['metadata'], 'metadata.name is required');
  else if (rawName.length > MAX_NAME || !NAME_PATTERN.test(rawName)) {
    reader.fail(['metadata', 'name'], `metadata.name "${rawName}" is not a valid name`);
  } else if (!HANDLE_PATTERN.test(rawName.toLowerCase()) || rawName.length < 3) {
    reader.fail(
      ['metadata', 'name'],
      `metadata.name "${rawName}" cannot be a Beacon handle: at least 3 letters or digits, joined by single hyphens`,
    );
  } else handle = rawName.toLowerCase();
  const spec = isObject(json.spec) ? json.spec : {};
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  const title = text(metadata.title)?.trim();
  const base: EntityBase = {
    handle: handle ?? '',
    name: title || rawName || '',
    description: text(metadata.description)?.trim() ?? '',
    links: linksOf(reader, metadata),
    place,
  };
  const entity =
    entityKind === 'service'
      ? serviceOf(reader, base, spec, annotations)
      : entityKind === 'team'
        ? teamOf(reader, base, spec, annotations)
        : apiOf(reader, base, spec, files);
  if (entity === 'skip') {
    out.skipped.push({ ...place, kind, name: rawName ?? '', reason: `Only APIs of type openapi are kept: skipped` });
  } else if (entity && handle) {
    out.entities.push(entity);
  } else {
    out.errored.push({ kind: entityKind, handle, errors: reader.errors });
  }
}

function readLocation(reader: DocumentReader, json: Json, files: ReadonlyMap<string, string>, out: ReadDescriptors) {
  const spec = isObject(json.spec) ? json.spec : {};
  const targets = [
    ...(typeof spec.target === 'string' ? [spec.target] : []),
    ...(Array.isArray(spec.targets) ? spec.targets.filter((t): t is string => typeof t === 'string') : []),
  ];
  if (targets.length === 0) reader.fail(['spec'], 'A Location needs spec.target or spec.targets');
  targets.forEach((target, index) => {
    if (/^[a-z]+:\/\//i.test(target)) {
      reader.fail(['spec', spec.target === target ? 'target' : 'targets', index], `"${target}" is not a relative path`);
      return;
    }
    const path = resolveTarget(reader.path, target);
    if (path === null || !files.has(path)) {
      reader.fail(
        ['spec', typeof spec.target === 'string' && index === 0 ? 'target' : 'targets'],
        `The Location's target "${target}" is not among the files`,
      );
    }
  });
  out.problems.push(...reader.errors);
}
