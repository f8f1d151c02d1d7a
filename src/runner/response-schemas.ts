/**
 * The `schema` assertion's validator (docs/decisions.md#spec-checks, issue 30): a body judged against its operation's
 * documented response for the status received. Ajv 8: the 2020-12 class for OpenAPI 3.1, the draft-07 one for 3.0 after
 * OpenAPI's `nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum` are rewritten as JSON Schema (on a copy).
 *
 * The whole document is registered with Ajv under an internal id and each response schema compiled as a `$ref`
 * into it, so `$ref`s resolve inside the document only (circular ones included) and nothing is ever fetched: an
 * external `$ref` makes that operation's schema fail to compile, which its verdicts say. Each (operation, response,
 * media type) is compiled at most once per specSchemas() call, on first use. `pattern`s run on re2js (linear time,
 * like the assertion language's regexes): a pattern RE2 cannot run (lookarounds, backreferences) is not checked.
 */
import { Buffer } from 'node:buffer';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import {
  chooseMediaType,
  followRef,
  isJsonMediaType,
  isObject,
  openapiVersion,
  operationsOf,
  pointerSegment,
  responseKeyFor,
  type SpecOperation,
} from '../domain/openapi-probes.js';
import { clipValue, formatSchemaFailure, parseSchemaFailure, type SchemaFailure } from '../domain/schema-failure.js';
import { BODY_CAP_BYTES } from './observe-support.js';

export { formatSchemaFailure, parseSchemaFailure, type SchemaFailure };

export interface SchemaVerdict {
  pass: boolean;
  /** 'valid' when it passes, else formatSchemaFailure(failure). */
  actual: string;
  failure?: SchemaFailure;
}

export type ResponseValidator = (status: number, body: string) => SchemaVerdict;

export interface SpecSchemas {
  /** null when the spec has no such operation (or is no OpenAPI 3 document). */
  validator(operationId: string): ResponseValidator | null;
}

type Json = Record<string, unknown>;

const VALID: SchemaVerdict = { pass: true, actual: 'valid' };
/** Statuses that never carry a body: an empty one is what the spec means, whatever content it lists. */
const NO_BODY = new Set([204, 205, 304]);

const fail = (failure: SchemaFailure): SchemaVerdict => ({
  pass: false,
  actual: formatSchemaFailure(failure),
  failure,
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI schemas as JSON Schema

/** Keys whose values are data (examples, defaults, enums), never schemas: copied as they are. */
const VALUE_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);
/** Keys whose objects map names to schemas: their keys are names, even `nullable` or `example`. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas']);
/** With these, `nullable` cannot be said by adding 'null' to `type`. */
const COMBINERS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'enum', 'const'];

/** `nullable: true` as JSON Schema, in place (so references to this object, circular ones too, see the change). */
function convertNullable(schema: Json): void {
  if (!Object.hasOwn(schema, 'nullable')) return;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return;
  const combined = COMBINERS.some((key) => Object.hasOwn(schema, key));
  const type = schema.type;
  if (!combined && typeof type === 'string') schema.type = [type, 'null'];
  else if (!combined && Array.isArray(type)) schema.type = type.includes('null') ? type : [...type, 'null'];
  else {
    const inner = { ...schema };
    for (const key of Object.keys(schema)) delete schema[key];
    schema.anyOf = [inner, { type: 'null' }];
  }
}

/** Draft-04's `exclusiveMinimum: true` (with `minimum`) as the numeric form later drafts take. */
function convertExclusive(schema: Json, exclusive: string, bound: string): void {
  const flag = schema[exclusive];
  if (typeof flag !== 'boolean') return;
  if (flag && typeof schema[bound] === 'number') {
    schema[exclusive] = schema[bound];
    delete schema[bound];
  } else delete schema[exclusive];
}

/**
 * A deep copy of the document with OpenAPI 3.0's schema dialect rewritten (harmless on 3.1, where `nullable`
 * would otherwise make Ajv throw without a `type`). Shared and circular objects (YAML aliases) stay so.
 */
function convertDocument(doc: unknown): unknown {
  const copies = new Map<object, unknown>();
  const copy = (value: unknown, names: boolean): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const done = copies.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      copies.set(value, out);
      for (const item of value) out.push(copy(item, false));
      return out;
    }
    const out: Json = {};
    copies.set(value, out);
    for (const [key, item] of Object.entries(value)) {
      const data = !names && (VALUE_KEYS.has(key) || key.startsWith('x-'));
      out[key] = data ? item : copy(item, !names && NAME_MAPS.has(key));
    }
    if (!names) {
      convertExclusive(out, 'exclusiveMinimum', 'minimum');
      convertExclusive(out, 'exclusiveMaximum', 'maximum');
      convertNullable(out);
    }
    return out;
  };
  return copy(doc, false);
}

// ---------------------------------------------------------------------------------------------------------------
// Ajv

/** Ajv's regex engine on re2js; `toString` keys Ajv's cache of patterns, so it must name the pattern. */
const re2Engine = Object.assign(
  (pattern: string) => {
    let regex: RE2JS | null = null;
    try {
      regex = RE2JS.compile(pattern);
    } catch {
      // RE2 cannot run it (a lookaround, a backreference): not checked rather than run with backtracking.
    }
    return { test: (text: string) => (regex ? regex.test(text) : true), toString: () => `re2:${pattern}` };
  },
  { code: 're2' },
);

function createAjv(dialect2020: boolean): Ajv | Ajv2020 {
  const options: Options = {
    strict: false,
    allErrors: false,
    validateSchema: false,
    logger: false,
    code: { regExp: re2Engine },
  };
  const ajv = dialect2020 ? new Ajv2020(options) : new Ajv(options);
  // ajv-formats is CommonJS: its plugin is module.exports and, typed, its `default`.
  ajvFormats.default(ajv);
  return ajv;
}

let documents = 0;

/** The document registered with one Ajv instance, under an id only Beacon uses. */
interface Engine {
  ajv: Ajv | Ajv2020;
  id: string;
}

/** A JSON pointer as a URI fragment, as Ajv reads `$ref`s. */
const fragment = (pointer: string) => pointer.split('/').map(encodeURIComponent).join('/');

// ---------------------------------------------------------------------------------------------------------------
// Verdicts

/** The value at an Ajv instancePath (a JSON pointer) in the body. */
function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let value = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Json)[segment];
  }
  return value;
}

const jsonOf = (value: unknown) => clipValue(JSON.stringify(value) ?? String(value));

/** The deepest error (the most specific, e.g. inside the oneOf branch that got furthest); the first of those. */
function deepest(errors: ErrorObject[]): ErrorObject {
  let best = errors[0]!;
  const depth = (error: ErrorObject) => (error.instancePath === '' ? 0 : error.instancePath.split('/').length);
  for (const error of errors) if (depth(error) > depth(best)) best = error;
  return best;
}

function failureOf(errors: ErrorObject[], data: unknown): SchemaFailure {
  const error = deepest(errors);
  let message = error.message ?? `must pass ${error.keyword}`;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    message = `must NOT have additional property '${String(params.additionalProperty)}'`;
  if (error.keyword === 'unevaluatedProperties')
    message = `must NOT have unevaluated property '${String(params.unevaluatedProperty)}'`;
  return {
    pointer: error.instancePath,
    rule: error.keyword,
    message,
    value: jsonOf(valueAt(data, error.instancePath)),
  };
}

const notJson = (body: string): SchemaFailure =>
  // Past the runner's cap the body was cut, so it cannot parse: say so rather than blame the API.
  Buffer.byteLength(body) >= BODY_CAP_BYTES - 3
    ? {
        pointer: '',
        rule: 'size',
        message: `the body is longer than the ${BODY_CAP_BYTES / 1024} KB a check reads`,
        value: '',
      }
    : { pointer: '', rule: 'json', message: 'the body is not JSON', value: jsonOf(body) };

/** Ajv's messages name the document's internal id, which says nothing to a person. */
const withoutInternalId = (text: string) =>
  text.replace(/ from id beacon-spec:\d+/g, '').replace(/beacon-spec:(\d+\b)?/g, '');

const uncompiled = (reason: string): SchemaFailure => ({
  pointer: '',
  rule: 'schema',
  message: `the spec's schema cannot be compiled: ${withoutInternalId(reason)}`,
  value: '',
});

/** Compiles each response schema lazily, at most once; `doc` is the parsed document. */
export function specSchemas(doc: unknown): SpecSchemas {
  const version = openapiVersion(doc);
  const validators = new Map<string, ResponseValidator>();
  const compiled = new Map<string, ValidateFunction | SchemaFailure>();
  let operations: Map<string, SpecOperation> | undefined;
  let converted: unknown;
  let engine: Engine | undefined;

  const operation = (operationId: string) => {
    if (!operations) {
      operations = new Map();
      for (const op of operationsOf(doc)) if (!operations.has(op.operation_id)) operations.set(op.operation_id, op);
    }
    return operations.get(operationId);
  };

  const compile = (pointer: string): ValidateFunction | SchemaFailure => {
    try {
      if (!engine) {
        converted ??= convertDocument(doc);
        const ajv = createAjv(!version!.startsWith('3.0'));
        const id = `beacon-spec:${++documents}`;
        ajv.addSchema(converted as Json, id);
        engine = { ajv, id };
      }
      return engine.ajv.compile({ $ref: `${engine.id}#${fragment(pointer)}` });
    } catch (error) {
      // A failed compile can leave Ajv's cache of referenced schemas half-built: the next compile starts afresh.
      engine = undefined;
      return uncompiled(messageOf(error));
    }
  };

  const validateFor = (key: string, pointer: string) => {
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = compile(pointer)));
    return validate;
  };

  const judge = (op: SpecOperation, status: number, body: string): SchemaVerdict => {
    const responses = op.operation.responses;
    const key = responseKeyFor(responses, status);
    if (key === null)
      return fail({
        pointer: '',
        rule: 'status',
        message: `status ${status} is not documented`,
        value: String(status),
      });
    const at = `${op.pointer}/responses/${pointerSegment(key)}`;
    const response = followRef(doc, (responses as Json)[key], at);
    if (!response) return fail(uncompiled(`the response for ${key} cannot be found in the spec`));
    const content = response.value.content;
    const mediaType = chooseMediaType(content);
    if (mediaType === null || !isJsonMediaType(mediaType)) return VALID;
    const media = (content as Json)[mediaType];
    if (!isObject(media) || media.schema === undefined) return VALID;
    // HEAD answers carry no body, and neither do these statuses.
    if (op.method === 'HEAD' || (NO_BODY.has(status) && body.trim() === '')) return VALID;
    const validate = validateFor(
      `${op.operation_id}\n${key}\n${mediaType}`,
      `${response.pointer}/content/${pointerSegment(mediaType)}/schema`,
    );
    if (typeof validate !== 'function') return fail(validate);
    let data: unknown;
    try {
      if (body.trim() === '') return fail(notJson(body));
      data = JSON.parse(body);
    } catch {
      return fail(notJson(body));
    }
    return validate(data) ? VALID : fail(failureOf(validate.errors ?? [], data));
  };

  return {
    validator(operationId) {
      if (version === null) return null;
      let validator = validators.get(operationId);
      if (validator) return validator;
      const op = operation(operationId);
      if (!op) return null;
      validator = (status, body) => {
        try {
          return judge(op, status, body);
        } catch (error) {
          // A body nested deeper than the stack, say: never an exception out of a check's evaluation.
          return fail({
            pointer: '',
            rule: 'schema',
            message: `the body cannot be checked: ${messageOf(error)}`,
            value: '',
          });
        }
      };
      validators.set(operationId, validator);
      return validator;
    },
  };
}
