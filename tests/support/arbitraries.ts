/**
 * fast-check arbitraries from zod 4 schemas (`schema._zod.def`), for the API fuzzer: `validOf` makes inputs a
 * schema accepts, `invalidOf` one mutation of such an input that it should refuse (a wrong type, a missing or
 * unknown field, a NUL or other control character, a string too long, a number out of range). zod-fast-check
 * does not support zod 4; this covers the types the contract uses.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { multiLine, singleLine } from '../../src/contract/common.js';

/** The parts of a zod 4 definition read here. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
}

export const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => (def.checks ?? []).map((check) => check._zod.def);

/** Calls `visit` with every schema nested in `schema` (itself included) and its path, e.g. `owner.email`. */
export function walkSchema(schema: z.ZodType, visit: (schema: z.ZodType, path: string) => void, path = ''): void {
  visit(schema, path);
  const def = defOf(schema);
  const child = (inner: unknown, key?: string | number) =>
    walkSchema(inner as z.ZodType, visit, key === undefined ? path : path ? `${path}.${key}` : String(key));
  if (WRAPPERS.has(def.type)) child(def.innerType);
  else if (def.type === 'pipe') [def.in, def.out].forEach((inner) => child(inner));
  else if (def.type === 'array') child(def.element, '*');
  else if (def.type === 'object')
    Object.entries(def.shape as Record<string, z.ZodType>).forEach(([key, inner]) => child(inner, key));
  else if (def.type === 'union') (def.options as z.ZodType[]).forEach((inner) => child(inner));
  else if (def.type === 'record') [def.keyType, def.valueType].forEach((inner) => child(inner, '*'));
  else if (def.type === 'tuple') (def.items as z.ZodType[]).forEach((inner, i) => child(inner, i));
  else if (def.type === 'lazy') child((def.getter as () => z.ZodType)());
}

/** Wrappers whose inner schema carries the value. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional, nullable, default and the like, and whether undefined or null is accepted. */
export function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; nullable: boolean } {
  let inner = schema;
  let optional = false;
  let nullable = false;
  for (let def = defOf(inner); WRAPPERS.has(def.type) || def.type === 'pipe'; def = defOf(inner)) {
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') optional = true;
    if (def.type === 'nullable') nullable = true;
    inner = (def.type === 'pipe' ? def.in : def.innerType) as z.ZodType;
  }
  return { inner, optional, nullable };
}

interface StringRules {
  min: number;
  max: number;
  trim: boolean;
  multiLine: boolean;
  /** A format's or regex check's pattern (not the control-character checks). */
  pattern: RegExp | undefined;
  format: string | undefined;
}

export function stringRules(def: Def): StringRules {
  const rules: StringRules = {
    min: 0,
    max: Infinity,
    trim: false,
    multiLine: false,
    pattern: def.format && def.format !== 'url' ? (def.pattern as RegExp) : undefined,
    format: def.format as string | undefined,
  };
  for (const [i, check] of checksOf(def).entries()) {
    const original = def.checks![i];
    if (check.check === 'min_length') rules.min = check.minimum!;
    else if (check.check === 'max_length') rules.max = check.maximum!;
    else if (check.check === 'length_equals') rules.min = rules.max = check.length!;
    else if (check.check === 'overwrite') rules.trim = true;
    else if (original === multiLine) rules.multiLine = true;
    else if (check.format === 'url') rules.format = 'url';
    else if (original !== singleLine && check.check === 'string_format') rules.pattern = check.pattern;
  }
  return rules;
}

/** Mostly handle-like characters (so handles and domains are valid often), with spaces and any Unicode. */
const lineUnit = fc.oneof(
  { weight: 14, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789') },
  { weight: 2, arbitrary: fc.constant('-') },
  { weight: 1, arbitrary: fc.constantFrom(' ', '.', '_', '@', '%', '/', '\\', '"', "'", '<', '>', '&', '?', '#') },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const textUnit = fc.oneof(
  { weight: 10, arbitrary: lineUnit },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\t') },
);

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const rules = stringRules(def);
  const fits = (value: string) => value.length >= rules.min && value.length <= rules.max;
  if (rules.format === 'url') return fc.webUrl({ validSchemes: ['http', 'https'] }).filter(fits);
  if (rules.pattern) return fc.stringMatching(rules.pattern).filter(fits);
  const maxLength = Math.min(rules.max, rules.min + 24);
  return fc
    .string({ unit: rules.multiLine ? textUnit : lineUnit, minLength: rules.min, maxLength })
    .map((value) => (rules.trim ? value.trim().padEnd(rules.min, 'a') : value))
    .filter(fits);
}

export function numberRange(def: Def): { min: number; max: number; integer: boolean } {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format' && /int/.test(check.format ?? '')) integer = true;
    if (check.check === 'greater_than') min = check.value! + (check.inclusive ? 0 : 1);
    if (check.check === 'less_than') max = check.value! - (check.inclusive ? 0 : 1);
  }
  return { min, max, integer };
}

/** Inputs `schema` accepts (almost always: refinements beyond the checks above are not modelled). */
export function validOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number': {
      const { min, max, integer } = numberRange(def);
      return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(validOf(def.innerType as z.ZodType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(validOf(def.innerType as z.ZodType), { nil: null, freq: 3 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return validOf(def.innerType as z.ZodType);
    case 'pipe':
      return validOf(def.in as z.ZodType);
    case 'lazy':
      return validOf((def.getter as () => z.ZodType)());
    case 'array': {
      const checks = checksOf(def);
      const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      const max = checks.find((c) => c.check === 'max_length')?.maximum ?? Infinity;
      const element = validOf(def.element as z.ZodType);
      return fc.array(element, { minLength, maxLength: Math.min(max, minLength + 3) });
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const keys = Object.keys(shape);
      const requiredKeys = keys.filter((key) => !unwrap(shape[key]!).optional);
      const fields = Object.fromEntries(keys.map((key) => [key, validOf(shape[key]!)]));
      return fc.record(fields, { requiredKeys });
    }
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(validOf));
    case 'record':
      return fc.dictionary(
        validOf(def.keyType as z.ZodType) as fc.Arbitrary<string>,
        validOf(def.valueType as z.ZodType),
        {
          maxKeys: 3,
        },
      );
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map(validOf));
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`arbitraries: no generator for zod type ${def.type}`);
  }
}

// ---- invalid inputs ----

export type MutationKind =
  | 'wrong-type'
  | 'missing-field'
  | 'unknown-field'
  | 'nul'
  | 'control-character'
  | 'line-break'
  | 'too-long'
  | 'too-short'
  | 'out-of-range'
  | 'not-an-integer'
  | 'not-a-member'
  | 'too-many';

export interface Mutation {
  kind: MutationKind;
  /** Where in the input, e.g. `owner.email` (empty: the whole input). */
  path: string;
  value: unknown;
}

type Path = (string | number)[];

/** `value` with the part at `path` replaced (`undefined` removes an object key). */
function setAt(value: unknown, path: Path, part: unknown): unknown {
  if (path.length === 0) return part;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const next = setAt(copy[head!], rest, part);
  if (next === undefined && !Array.isArray(copy)) delete copy[head!];
  else copy[head!] = next;
  return copy;
}

const SAMPLES: [string, unknown][] = [
  ['number', 42],
  ['string', 'fuzz'],
  ['boolean', true],
  ['object', { fuzz: 1 }],
  ['array', ['fuzz']],
  ['null', null],
];

/** Every single mutation of `value` (valid for `schema`) at `path` and below. */
function mutationsAt(schema: z.ZodType, value: unknown, path: Path, out: Mutation[], scalarsOnly: boolean): void {
  const { inner, nullable } = unwrap(schema);
  const def = defOf(inner);
  const at = path.join('.');
  const add = (kind: MutationKind, part: unknown) => out.push({ kind, path: at, value: part });
  const type = def.type === 'enum' || def.type === 'literal' ? 'string' : def.type;
  if (!scalarsOnly) {
    for (const [name, sample] of SAMPLES) {
      if (name === type || (name === 'null' && nullable) || ['unknown', 'any', 'union'].includes(def.type)) continue;
      if (name === 'string' && def.type === 'number' && def.coerce) continue;
      add('wrong-type', sample);
    }
  }
  if (value === undefined || value === null) return;
  switch (def.type) {
    case 'string': {
      const rules = stringRules(def);
      const text = String(value);
      add('nul', `${text}\u0000`);
      add('control-character', `\u001b[31m${text}\u0007`);
      if (!rules.multiLine) add('line-break', `${text}\nsecond line`);
      if (rules.max < 100_000) add('too-long', 'x'.repeat(rules.max + 1));
      if (rules.min > 0) add('too-short', '');
      break;
    }
    case 'number': {
      const { min, max, integer } = numberRange(def);
      if (min > -1e9) add('out-of-range', min - 1);
      if (max < 1e9) add('out-of-range', max + 1);
      if (integer) add('not-an-integer', Number(value) + 0.5);
      break;
    }
    case 'enum':
    case 'literal':
      add('not-a-member', `not-${String(value)}`);
      break;
    case 'array': {
      const max = checksOf(def).find((c) => c.check === 'max_length')?.maximum;
      const items = value as unknown[];
      if (max !== undefined && items.length > 0 && max < 1000) add('too-many', Array(max + 1).fill(items[0]));
      items.forEach((item, i) => mutationsAt(def.element as z.ZodType, item, [...path, i], out, scalarsOnly));
      break;
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const record = value as Record<string, unknown>;
      if (!scalarsOnly && defOf(def.catchall).type === 'never') add('unknown-field', { ...record, fuzz_unknown: 1 });
      for (const [key, field] of Object.entries(shape)) {
        if (!unwrap(field).optional && !scalarsOnly) add('missing-field', setAt(record, [key], undefined));
        if (key in record) mutationsAt(field, record[key], [...path, key], out, scalarsOnly);
      }
      break;
    }
  }
}

/**
 * One mutation of a valid input, picked by fast-check: each is meant to be refused, but is not filtered by the
 * schema, so a schema that forgets a rule (a NUL accepted) lets the mutation through to the server. `scalarsOnly`
 * keeps the input's shape (path parameters and query strings carry only strings): only field values change.
 */
export function invalidOf(schema: z.ZodType, options: { scalarsOnly?: boolean } = {}): fc.Arbitrary<Mutation> {
  return fc.tuple(validOf(schema), fc.nat()).map(([value, pick]) => {
    const found: Mutation[] = [];
    mutationsAt(schema, value, [], found, options.scalarsOnly ?? false);
    const mutation = found[pick % found.length] ?? { kind: 'wrong-type', path: '', value: 42 };
    return { ...mutation, value: setAt(value, pathOf(mutation.path), mutation.value) };
  });
}

const pathOf = (path: string): Path =>
  path === '' ? [] : path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
