/**
 * Specs that check themselves (docs/decisions.md#spec-checks, issue 30): which operations of a published OpenAPI
 * document can be probed as health checks, with the URL, status codes and assertions each check would get, and how a
 * check finds its operation again in a newer version. Pure: it reads an already-parsed document (YAML or JSON) and
 * never follows a `$ref` outside it. The runner's response-schemas.ts reads operations and responses through the
 * helpers exported here, so both sides agree on operation ids and media types.
 */
import type { Assertion } from './check-kinds.js';

export interface SpecOperationRef {
  operation_id: string;
  /** Upper case. */
  method: string;
  path: string;
}

export interface ProbeProposal {
  /** The operationId, else `${METHOD} ${path}` (e.g. "GET /items/{id}"). */
  operation_id: string;
  method: string;
  path: string;
  summary: string | null;
  /** Server URL + path with its parameters filled; null when it cannot be built. */
  url: string | null;
  /** Documented 2xx/3xx response keys as written (`200`, `2XX`), sorted; `['default']` when only that. */
  success_codes: string[];
  content_type: string | null;
  needs_auth: boolean;
  /** Required header (and cookie) parameters with their examples, for the check's request settings. */
  headers?: Record<string, string>;
  /** [] when skipped. */
  assertions: Assertion[];
  /** Why it is not proposed; absent when it can be probed. */
  reason_skipped?: string;
}

export interface ProbeOptions {
  /** An absolute http(s) URL chosen by the editor: replaces the spec's server, or prefixes a relative one. */
  server?: string;
  /** Values of server variables, over their defaults. */
  variables?: Record<string, string>;
}

export interface SpecServer {
  url: string;
  variables: Record<string, { default: string; enum?: string[] }>;
}

export interface SpecProbes {
  title: string | null;
  version: string | null;
  /** '3.0.3', '3.1.0', ...; null when the document is no OpenAPI 3 (Swagger 2.0 included). */
  openapi: string | null;
  servers: SpecServer[];
  probes: ProbeProposal[];
}

type Json = Record<string, unknown>;

/** Path item keys that hold operations, in the order operations are listed (`query` is OpenAPI 3.2's). */
export const OPERATION_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace', 'query'];

const SUMMARY_MAX = 200;
/** `$ref` chains longer than this are treated as broken (they are cycles, in practice). */
const REF_DEPTH_MAX = 20;
const NOT_OPENAPI_3 = 'Only OpenAPI 3.0 and 3.1 specs are probed';

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (object: Json, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;

// ---------------------------------------------------------------------------------------------------------------
// The document: its version, `$ref`s inside it, its operations

/** The `openapi` field when it is a 3.x version (YAML may read `3.1` as a number); else null. */
export function openapiVersion(doc: unknown): string | null {
  if (!isObject(doc)) return null;
  const version = text(own(doc, 'openapi'));
  return version && /^3\.\d/.test(version) ? version : null;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export const pointerSegment = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The JSON pointer a local `$ref` names (`#/components/schemas/A%20B` → `/components/schemas/A B`); else null. */
export function refPointer(ref: string): string | null {
  if (!ref.startsWith('#')) return null;
  try {
    const pointer = decodeURIComponent(ref.slice(1));
    return pointer === '' || pointer.startsWith('/') ? pointer : null;
  } catch {
    return null;
  }
}

/** The value at a JSON pointer (RFC 6901, '' is the whole document); undefined when it points nowhere. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let value: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value) && /^\d+$/.test(segment)) value = value[Number(segment)];
    else if (isObject(value)) value = own(value, segment);
    else return undefined;
  }
  return value;
}

/**
 * An object that may be a `$ref` (a parameter, a response, an example), followed to what it names inside the
 * document, with the JSON pointer where that is (`pointer`, where `value` sits, is kept when there was no `$ref`).
 * Null when a `$ref` is external, dangling or circular.
 */
export function followRef(doc: unknown, value: unknown, pointer = ''): { value: Json; pointer: string } | null {
  let current = value;
  let at = pointer;
  for (let depth = 0; depth <= REF_DEPTH_MAX; depth++) {
    if (!isObject(current)) return null;
    const ref = own(current, '$ref');
    if (typeof ref !== 'string') return { value: current, pointer: at };
    const target = refPointer(ref);
    if (target === null) return null;
    current = resolvePointer(doc, target);
    at = target;
  }
  return null;
}

/** One operation of the document, where it is, and the path item it belongs to. */
export interface SpecOperation extends SpecOperationRef {
  operation: Json;
  pathItem: Json;
  /** JSON pointer of the operation object (through the path item's `$ref`, if any). */
  pointer: string;
}

/** Every operation in document order (paths, then OPERATION_METHODS), whatever the version. */
export function operationsOf(doc: unknown): SpecOperation[] {
  const paths = isObject(doc) ? own(doc, 'paths') : undefined;
  if (!isObject(paths)) return [];
  const operations: SpecOperation[] = [];
  for (const path of Object.keys(paths)) {
    const item = followRef(doc, paths[path], `/paths/${pointerSegment(path)}`);
    if (!item) continue;
    for (const method of OPERATION_METHODS) {
      const operation = own(item.value, method);
      if (!isObject(operation)) continue;
      const id = text(own(operation, 'operationId'));
      const upper = method.toUpperCase();
      operations.push({
        operation_id: id ?? `${upper} ${path}`,
        method: upper,
        path,
        operation,
        pathItem: item.value,
        pointer: `${item.pointer}/${method}`,
      });
    }
  }
  return operations;
}

export function specOperations(doc: unknown): SpecOperationRef[] {
  return operationsOf(doc).map(({ operation_id, method, path }) => ({ operation_id, method, path }));
}

/** `/items/{id}` and `/items/{itemId}` are the same route. */
const routeOf = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/** Relinking after a new spec version: operationId first, else same method and path; null when gone. */
export function matchOperation(
  old: SpecOperationRef,
  operations: readonly SpecOperationRef[],
): SpecOperationRef | null {
  const method = old.method.toUpperCase();
  // An id made of the method and path is no operationId: only the route can find it again.
  const realId = old.operation_id !== `${method} ${old.path}`;
  if (realId) {
    const byId = operations.find((operation) => operation.operation_id === old.operation_id);
    if (byId) return byId;
  }
  const sameMethod = operations.filter((operation) => operation.method.toUpperCase() === method);
  return (
    sameMethod.find((operation) => operation.path === old.path) ??
    sameMethod.find((operation) => routeOf(operation.path) === routeOf(old.path)) ??
    null
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Responses and media types

/** `200`, `2XX` (any case): the status keys a probe counts as success. */
const SUCCESS_KEY = /^[23](?:\d\d|xx)$/i;

/** The media type without parameters, lower case: `application/json; charset=utf-8` → `application/json`. */
export const mediaBase = (mediaType: string): string => mediaType.split(';')[0]!.trim().toLowerCase();

/** JSON, `+json` types, and the wildcards generators write for JSON (`*\/*` is springdoc's default). */
export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaBase(mediaType);
  return base === '*/*' || base === 'application/*' || base.endsWith('/json') || base.endsWith('+json');
}

/** The media type a body is read as: application/json, else a `+json` one, else the first listed; null if none. */
export function chooseMediaType(content: unknown): string | null {
  if (!isObject(content)) return null;
  const types = Object.keys(content);
  return (
    types.find((type) => mediaBase(type) === 'application/json') ??
    types.find((type) => mediaBase(type).endsWith('+json')) ??
    types[0] ??
    null
  );
}

/**
 * The response key documented for `status`: the exact code, else its range (`4XX`), else `default`; null when
 * none applies.
 */
export function responseKeyFor(responses: unknown, status: number): string | null {
  if (!isObject(responses)) return null;
  const keys = Object.keys(responses);
  const code = String(status);
  return (
    keys.find((key) => key === code) ??
    keys.find((key) => key.length === 3 && key[0] === code[0] && key.slice(1).toUpperCase() === 'XX') ??
    (Object.hasOwn(responses, 'default') ? 'default' : null)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Servers

const VARIABLE = /\{([^}]+)\}/g;
const ABSOLUTE = /^https?:\/\//i;

function serverVariables(server: Json): SpecServer['variables'] {
  const variables = own(server, 'variables');
  const out: SpecServer['variables'] = {};
  if (!isObject(variables)) return out;
  for (const [name, variable] of Object.entries(variables)) {
    if (!isObject(variable)) continue;
    const value = text(own(variable, 'default'));
    const options = own(variable, 'enum');
    out[name] = {
      default: value ?? '',
      ...(Array.isArray(options) ? { enum: options.map((option) => String(option)) } : {}),
    };
  }
  return out;
}

/** A server's URL with `{var}` filled from `values`, else the variable's default; unknown ones stay as written. */
function fillServer(server: Json, values: Record<string, string> | undefined): string {
  const url = text(own(server, 'url')) ?? '/';
  const variables = serverVariables(server);
  return url.replace(VARIABLE, (whole, name: string) => {
    const value = values && Object.hasOwn(values, name) ? values[name] : variables[name]?.default;
    return value === undefined || value === '' ? whole : value;
  });
}

function serversOf(list: unknown): Json[] {
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** The spec's own servers (the document's), URLs filled. */
function docServers(doc: Json, options: ProbeOptions): SpecServer[] {
  return serversOf(own(doc, 'servers')).map((server) => ({
    url: fillServer(server, options.variables),
    variables: serverVariables(server),
  }));
}

const trimSlashes = (url: string) => url.replace(/\/+$/, '');

/** A relative server URL (`/v1`, `v1`, `./v1`, `/`) as a path: `/v1`, or '' for the root. */
const relativePath = (url: string) => {
  const path = trimSlashes(url.replace(/^\.?\/+/, ''));
  return path === '' ? '' : `/${path}`;
};

/** `base` + a relative server path, unless the chosen base already ends with it. */
function joinServer(base: string, relative: string): string {
  const root = trimSlashes(base);
  const path = relativePath(relative);
  return path === '' || root.endsWith(path) ? root : root + path;
}

type Base = { url: string } | { reason: string };

/**
 * The base URL of an operation: its own servers, else its path's, else the document's, else `/` (OpenAPI's
 * default), first entry, variables filled. The editor's server replaces the document's servers and prefixes a
 * relative one; an operation's own absolute servers stay unless the editor chose one of them.
 */
function baseUrl(doc: Json, op: SpecOperation, options: ProbeOptions): Base {
  const opServers = serversOf(own(op.operation, 'servers'));
  const local = opServers.length > 0 ? opServers : serversOf(own(op.pathItem, 'servers'));
  const list = local.length > 0 ? local : serversOf(own(doc, 'servers'));
  const filled = list.map((server) => fillServer(server, options.variables));
  const first = (filled[0] ?? '/').replace(/^\/\//, 'https://');
  const unfilled = /\{([^}]+)\}/.exec(first);
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(first);
  const chosen = options.server?.trim();
  if (chosen) {
    if (!ABSOLUTE.test(chosen)) return { reason: 'The chosen server is not an http or https URL' };
    if (relative && !unfilled) return { url: joinServer(chosen, first) };
    const mine = filled.some((url) => trimSlashes(url) === trimSlashes(chosen));
    if (!relative && (local.length === 0 || mine)) return { url: chosen };
  }
  if (unfilled) return { reason: `The server variable ${unfilled[1]} has no value` };
  if (relative) return { reason: "The spec's server URL is relative: choose a server" };
  return ABSOLUTE.test(first) ? { url: first } : { reason: "The spec's server URL is not http or https" };
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  style?: string;
  explode?: boolean;
  spec: Json;
}

/** Header parameters OpenAPI says to ignore: the request settings carry these. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** The path's and the operation's parameters, `$ref`s followed; the operation's win by name and location. */
function parametersOf(doc: Json, op: SpecOperation): Parameter[] | { reason: string } {
  const merged = new Map<string, Parameter>();
  for (const list of [own(op.pathItem, 'parameters'), own(op.operation, 'parameters')]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const resolved = followRef(doc, entry);
      if (!resolved) {
        const ref = isObject(entry) ? own(entry, '$ref') : undefined;
        return { reason: `The parameter ${typeof ref === 'string' ? ref : ''} cannot be found in the spec`.trim() };
      }
      const spec = resolved.value;
      const name = text(own(spec, 'name'));
      const where = text(own(spec, 'in'))?.toLowerCase();
      if (!name || !where) continue;
      const style = own(spec, 'style');
      const explode = own(spec, 'explode');
      merged.set(`${where}:${where === 'header' ? name.toLowerCase() : name}`, {
        name,
        in: where,
        required: where === 'path' || own(spec, 'required') === true,
        ...(typeof style === 'string' ? { style } : {}),
        ...(typeof explode === 'boolean' ? { explode } : {}),
        spec,
      });
    }
  }
  return [...merged.values()];
}

type Example = { value: unknown } | null;

const present = (value: unknown): Example => (value === undefined || value === null ? null : { value });

/** The first `value` of an `examples` map (each entry maybe a `$ref`). */
function firstExample(doc: Json, examples: unknown): Example {
  if (!isObject(examples)) return null;
  for (const entry of Object.values(examples)) {
    const example = followRef(doc, entry);
    const found = example && present(own(example.value, 'value'));
    if (found) return found;
  }
  return null;
}

/** A value for a parameter: its example(s), else its schema's example, default or first enum value. */
function exampleOf(doc: Json, param: Json): Example {
  const direct = present(own(param, 'example')) ?? firstExample(doc, own(param, 'examples'));
  if (direct) return direct;
  // A parameter described by `content` instead of `schema`: its (only) media type holds what `schema` would.
  const content = own(param, 'content');
  const media = isObject(content) ? Object.values(content).find(isObject) : undefined;
  if (media) {
    const found = present(own(media, 'example')) ?? firstExample(doc, own(media, 'examples'));
    if (found) return found;
  }
  const schema = followRef(doc, own(media ?? param, 'schema'))?.value;
  if (!schema) return null;
  const list = (key: string) => {
    const values = own(schema, key);
    return Array.isArray(values) ? present(values[0]) : null;
  };
  return present(own(schema, 'example')) ?? list('examples') ?? present(own(schema, 'default')) ?? list('enum');
}

const scalar = (value: unknown): string =>
  typeof value === 'string' ? value : isObject(value) || Array.isArray(value) ? JSON.stringify(value) : String(value);

/** An array or object example as the pieces simple and form styles list: `[a, b]`, or `[k, v, ...]`/`[k=v, ...]`. */
function pieces(value: unknown, explode: boolean, encode: (text: string) => string): string[] {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item)));
  if (isObject(value))
    return Object.entries(value).flatMap(([key, item]) =>
      explode ? [`${encode(key)}=${encode(scalar(item))}`] : [encode(key), encode(scalar(item))],
    );
  return [encode(scalar(value))];
}

/** A path parameter's value in the URL (styles simple, label and matrix), URL-encoded. */
function pathValue(param: Parameter, value: unknown): string {
  const joined = pieces(value, param.explode ?? false, encodeURIComponent).join(',');
  if (param.style === 'label') return `.${joined}`;
  if (param.style === 'matrix') return `;${encodeURIComponent(param.name)}=${joined}`;
  return joined;
}

/** A query parameter as `name=value` pairs (form style, exploded by default; deepObject; delimited). */
function queryPairs(param: Parameter, value: unknown): string[] {
  const name = encodeURIComponent(param.name);
  const explode = param.explode ?? (param.style === undefined || param.style === 'form');
  if (param.style === 'deepObject' && isObject(value))
    return Object.entries(value).map(
      ([key, item]) => `${name}%5B${encodeURIComponent(key)}%5D=${encodeURIComponent(scalar(item))}`,
    );
  if (Array.isArray(value) && explode) return value.map((item) => `${name}=${encodeURIComponent(scalar(item))}`);
  if (isObject(value) && explode)
    return Object.entries(value).map(([key, item]) => `${encodeURIComponent(key)}=${encodeURIComponent(scalar(item))}`);
  const separator = param.style === 'spaceDelimited' ? '%20' : param.style === 'pipeDelimited' ? '%7C' : ',';
  return [`${name}=${pieces(value, false, encodeURIComponent).join(separator)}`];
}

interface Filled {
  path: string;
  query: string[];
  headers: Record<string, string>;
}

/** The path with its parameters filled, the query and the headers: from the required parameters' examples. */
function fillParameters(doc: Json, op: SpecOperation, params: Parameter[]): Filled | { reason: string } {
  const filled: Filled = { path: op.path, query: [], headers: {} };
  const cookies: string[] = [];
  const byPath = new Map(params.filter((param) => param.in === 'path').map((param) => [param.name, param]));
  for (const param of params) {
    if (!param.required || (param.in === 'header' && IGNORED_HEADERS.has(param.name.toLowerCase()))) continue;
    if (param.in === 'path' && !op.path.includes(`{${param.name}}`)) continue;
    const example = exampleOf(doc, param.spec);
    if (!example) {
      if (param.in === 'header')
        return { reason: `Needs the header ${param.name}, which the check's request settings must carry` };
      return { reason: `The required parameter ${param.name} has no example or default` };
    }
    if (param.in === 'query') filled.query.push(...queryPairs(param, example.value));
    else if (param.in === 'header') filled.headers[param.name] = pieces(example.value, false, String).join(',');
    else if (param.in === 'cookie') cookies.push(`${param.name}=${pieces(example.value, false, String).join(',')}`);
  }
  if (cookies.length > 0) filled.headers.Cookie = cookies.join('; ');
  let missing: string | null = null;
  filled.path = op.path.replace(VARIABLE, (whole, name: string) => {
    const param = byPath.get(name);
    const example = param && exampleOf(doc, param.spec);
    if (!param || !example) {
      missing ??= name;
      return whole;
    }
    return pathValue(param, example.value);
  });
  if (missing !== null)
    return byPath.has(missing)
      ? { reason: `The required parameter ${missing} has no example or default` }
      : { reason: `The path parameter ${missing} is not described in the spec` };
  return filled;
}

// ---------------------------------------------------------------------------------------------------------------
// Proposals

function summaryOf(operation: Json): string | null {
  const summary = text(own(operation, 'summary'));
  const description = own(operation, 'description');
  const line =
    summary ??
    (typeof description === 'string'
      ? (description
          .split('\n')
          .map((part) => part.trim())
          .find((part) => part !== '') ?? null)
      : null);
  if (line === null) return null;
  return line.length <= SUMMARY_MAX ? line : `${line.slice(0, SUMMARY_MAX - 1)}…`;
}

/** Security applies unless the operation (or else the document) lists none, or lists `{}` (anonymous allowed). */
function needsAuth(doc: Json, operation: Json): boolean {
  const opSecurity = own(operation, 'security');
  const security = Array.isArray(opSecurity) ? opSecurity : own(doc, 'security');
  if (!Array.isArray(security) || security.length === 0) return false;
  return !security.some((requirement) => isObject(requirement) && Object.keys(requirement).length === 0);
}

interface Success {
  codes: string[];
  contentType: string | null;
  /** The success response documents a schema for that (JSON) media type. */
  hasSchema: boolean;
}

/** The success codes, and the media type (and schema) of the first success response that has content. */
function successOf(doc: Json, operation: Json): Success {
  const responses = own(operation, 'responses');
  const keys = isObject(responses) ? Object.keys(responses) : [];
  const success = keys.filter((key) => SUCCESS_KEY.test(key)).sort();
  const codes = success.length > 0 ? success : keys.includes('default') ? ['default'] : [];
  for (const code of codes) {
    const response = followRef(doc, own(responses as Json, code))?.value;
    const content = response && own(response, 'content');
    const contentType = chooseMediaType(content);
    if (contentType === null) continue;
    const media = own(content as Json, contentType);
    const hasSchema = isJsonMediaType(contentType) && isObject(media) && own(media, 'schema') !== undefined;
    return { codes, contentType, hasSchema };
  }
  return { codes, contentType: null, hasSchema: false };
}

/** `status in 200, 2XX→200..299`, or 200..399 when only `default` is documented. */
function statusValues(codes: string[]): (string | number)[] {
  if (codes.length === 1 && codes[0] === 'default') return ['200..399'];
  return codes.map((code) => (/^\d{3}$/.test(code) ? Number(code) : `${code[0]}00..${code[0]}99`));
}

function assertionsFor(method: string, success: Success): Assertion[] {
  const assertions: Assertion[] = [{ source: 'status', op: 'in', value: statusValues(success.codes) }];
  // A wildcard (`*/*`) says nothing the header could be compared with.
  const base = success.contentType && mediaBase(success.contentType);
  if (base && !base.includes('*')) assertions.push({ source: 'header:content-type', op: 'contains', value: base });
  if (method === 'GET' && success.hasSchema) assertions.push({ source: 'schema', op: '==', value: true });
  return assertions;
}

/** Why the operation cannot be probed as it stands (method, body, responses), before its URL is built. */
function shapeProblem(op: SpecOperation, success: Success): string | null {
  if (op.method !== 'GET' && op.method !== 'HEAD') return 'Only GET and HEAD operations are probed';
  if (own(op.operation, 'requestBody') !== undefined) return 'It takes a request body';
  const responses = own(op.operation, 'responses');
  if (!isObject(responses) || Object.keys(responses).length === 0) return 'It documents no responses';
  if (success.codes.length === 0) return 'It documents no success response';
  return null;
}

function propose(doc: Json, op: SpecOperation, options: ProbeOptions, probeable: boolean): ProbeProposal {
  const success = successOf(doc, op.operation);
  const proposal: ProbeProposal = {
    operation_id: op.operation_id,
    method: op.method,
    path: op.path,
    summary: summaryOf(op.operation),
    url: null,
    success_codes: success.codes,
    content_type: success.contentType,
    needs_auth: needsAuth(doc, op.operation),
    assertions: [],
  };
  if (!probeable) return { ...proposal, reason_skipped: NOT_OPENAPI_3 };
  const params = parametersOf(doc, op);
  const filled = 'reason' in params ? params : fillParameters(doc, op, params);
  const base = baseUrl(doc, op, options);
  if (!('reason' in filled)) {
    if (Object.keys(filled.headers).length > 0) proposal.headers = filled.headers;
    if ('url' in base) {
      const path = filled.path.startsWith('/') ? filled.path : `/${filled.path}`;
      const query = filled.query.length > 0 ? `${path.includes('?') ? '&' : '?'}${filled.query.join('&')}` : '';
      proposal.url = `${trimSlashes(base.url)}${path}${query}`;
    }
  }
  const reason =
    shapeProblem(op, success) ?? ('reason' in filled ? filled.reason : null) ?? ('reason' in base ? base.reason : null);
  if (reason) return { ...proposal, reason_skipped: reason };
  return { ...proposal, assertions: assertionsFor(op.method, success) };
}

export function specProbes(doc: unknown, options: ProbeOptions = {}): SpecProbes {
  const root = isObject(doc) ? doc : {};
  const openapi = openapiVersion(root);
  const info = own(root, 'info');
  return {
    title: isObject(info) ? text(own(info, 'title')) : null,
    version: isObject(info) ? text(own(info, 'version')) : null,
    openapi,
    servers: openapi ? docServers(root, options) : [],
    probes: operationsOf(root).map((op) => propose(root, op, options, openapi !== null)),
  };
}
