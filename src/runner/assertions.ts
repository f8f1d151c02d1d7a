/**
 * Evaluating assertions on what a probe observed (docs/decisions.md#checks, issue 26; the language is in
 * domain/assertion-text.ts). A check's assertions are compiled once per check version (JSONata expressions and
 * regexes), then evaluated on every result. Nothing built from a target's answer is ever run as code, and every
 * engine that reads the answer is bounded:
 *
 * - Regexes (`matches`, and regex literals inside JSONata) run on re2js: linear time, never the backtracking JS
 *   RegExp; a regex may compile to at most REGEX_PROGRAM_MAX instructions, which bounds the linear factor.
 * - JSONata runs with its 2.2 limits (time, stack depth, sequence length). Those are checked between evaluation
 *   steps only, so the built-in functions that can run long or big inside one step are guarded too: strings
 *   (`&` included) of at most 1,000,000 characters, `$pad` widths likewise, `$sort` and `$distinct` (quadratic in
 *   jsonata 2.2) on at most 2,000 values, and regex literals share the time limit. `$eval` is refused.
 *
 * Semantics (what a monitoring user sees on each result):
 *
 * - A value that was not observed (no status, header absent, JSONata undefined, body not JSON) is missing:
 *   `actual: null`, and it fails every op but `missing` (`!=` and `not_contains` included: "not 500" is no claim
 *   about an answer that never came). Never a silent 0.
 * - A failed JSONata evaluation (timeout, depth, a type error) fails every op, `missing` included; why is added to
 *   `expected` in parentheses, as is "the body is not JSON".
 * - Numeric ops (`<`, `<=`, `>`, `>=`, `==` with a number, `in` numbers and `a..b` ranges) read the actual as a
 *   number (a header "42" is 42); an actual that is not a number fails them and is shown as it is.
 * - Lists (`dns.answers`, a JSONata array): `contains` means an element equals the value, `matches` that an element
 *   matches, `in` that every element is in the set (and there is one); `==` compares the text. DNS answers are
 *   shown (and compared) sorted and joined by ", ", so their order never looks like a change.
 * - `changed` asserts on drift: it fails when the value differs from `previous[source]`, the value the last result
 *   saw; with no previous value, or nothing observed now, it passes. Its `actual` is what to store as the next
 *   previous value (changedValues() does that, keeping the last value seen through a missing one); a value
 *   longer than 200 characters is kept as its start and a hash of the whole, so a change past the cut shows.
 * - `domain.days_left` when RDAP knows no expiry (a TLD without RDAP) is not judged: it passes, `actual` is
 *   `unknown` and `expected` says why: unknown is never failing. (`changed` keeps `actual` null: nothing to store.)
 * - `schema` needs `options.schema` (the linked operation's response schema, a later issue); without it the
 *   assertion fails with `expected: 'a response schema'`.
 */
import jsonata from 'jsonata';
import { RE2JS } from 're2js';
import { checkAssertion, formatValue, parseNumber, parseRange } from '../domain/assertion-text.js';
import {
  ASSERTION_ACTUAL_MAX,
  notJudged,
  UNKNOWN_ACTUAL,
  type Assertion,
  type AssertionResult,
  type Observation,
} from '../domain/check-kinds.js';
import { IMPORTANCES, type Importance } from '../domain/health.js';

/** jsonata 2.2's own limits: ms per evaluation, evaluation depth, values in a sequence. */
export const JSONATA_LIMITS = { timeout: 100, stack: 500, sequence: 10_000 } as const;
/** re2js program size (about one instruction per character class or literal): `\w{1,1000}` is 2001. */
export const REGEX_PROGRAM_MAX = 1000;
/** Longest string JSONata may build or read in one built-in call. */
const JSONATA_STRING_MAX = 1_000_000;
/** Longest result (as text) a JSONata source may give: health answers are small. */
const JSONATA_RESULT_MAX = 100_000;
/** `$sort` and `$distinct` are quadratic in jsonata 2.2. */
const JSONATA_QUADRATIC_MAX = 2_000;

export interface AssertionSyntaxError {
  /** The assertion's position in the list, from 0. */
  index: number;
  message: string;
}

type Matcher = ReturnType<RE2JS['matcher']>;

/** One assertion ready to evaluate: what its op needs, built once. */
interface Compiled {
  assertion: Assertion;
  /** The value as the text form writes it. */
  expected: string;
  /** Why it cannot be evaluated (it then fails every time). */
  error?: string;
  expression?: jsonata.Expression;
  regex?: RE2JS;
  set?: { numbers: Set<number>; ranges: [number, number][]; strings: Set<string> };
  /** `contains`: the value as text. */
  needle?: string;
}

export interface CompiledAssertions {
  readonly assertions: readonly Assertion[];
  /** Assertions that could not be compiled; each fails when evaluated. */
  readonly compileErrors: readonly AssertionSyntaxError[];
  /** @internal */
  readonly compiled: readonly Compiled[];
}

export interface EvaluateOptions {
  /** The check's importance: the severity of assertions that name none. */
  importance: Importance;
  /** What the last result saw, by source (`changed`): changedValues() of the last results. */
  previous?: Record<string, string | null>;
  /** Validates a body against the linked operation's response schema for its status (`schema`). */
  schema?: (status: number, body: string) => { pass: boolean; actual: string };
}

// ---------------------------------------------------------------------------------------------------------------
// Guarding JSONata

/** A JSONata native function value (what `$length` evaluates to). */
interface NativeFunction {
  _jsonata_function: true;
  implementation: (this: unknown, ...args: unknown[]) => unknown;
  signature?: unknown;
}

const jsonataError = (message: string) => Object.assign(new Error(message), { code: 'BEACON' });

const tooLong = (what: string) =>
  jsonataError(`${what} would be longer than ${JSONATA_STRING_MAX.toLocaleString('en')} characters`);

function checkString(value: unknown, what: string): void {
  if (typeof value === 'string' && value.length > JSONATA_STRING_MAX) throw tooLong(what);
}

/** The built-ins whose one call can read or build a big string or array. */
const GUARDED = [
  'string',
  'length',
  'substring',
  'substringBefore',
  'substringAfter',
  'uppercase',
  'lowercase',
  'trim',
  'pad',
  'contains',
  'split',
  'join',
  'match',
  'replace',
  'base64encode',
  'base64decode',
  'encodeUrlComponent',
  'encodeUrl',
  'decodeUrlComponent',
  'decodeUrl',
  'formatNumber',
  'formatBase',
  'formatInteger',
  'sort',
  'distinct',
];

function guard(name: string, original: NativeFunction): NativeFunction {
  const what = `$${name}`;
  const after = (result: unknown) => {
    checkString(result, `The result of ${what}`);
    return result;
  };
  return {
    _jsonata_function: true,
    signature: original.signature,
    implementation(this: unknown, ...args: unknown[]) {
      for (const arg of args) checkString(arg, `A string given to ${what}`);
      if (name === 'pad' && Math.abs(Number(args[1])) > JSONATA_STRING_MAX) throw tooLong(`The result of ${what}`);
      if ((name === 'sort' || name === 'distinct') && Array.isArray(args[0]) && args[0].length > JSONATA_QUADRATIC_MAX)
        throw jsonataError(`${what} takes at most ${JSONATA_QUADRATIC_MAX.toLocaleString('en')} values here`);
      const result = original.implementation.apply(this, args);
      return result instanceof Promise ? result.then(after) : after(result);
    },
  };
}

/** Bindings every expression gets: the guarded built-ins, `&` (see harden) and a refused `$eval`. */
let guardBindings: Record<string, NativeFunction> | undefined;
const CONCAT = '__beacon_concat';

/** Loads jsonata's own built-ins once (evaluation is async): the originals the guards call. */
const guardsReady: Promise<void> = (async () => {
  const originals = (await jsonata(`{${GUARDED.map((name) => `"${name}": $${name}`).join(', ')}}`).evaluate(
    null,
  )) as Record<string, NativeFunction>;
  const string = originals.string!.implementation;
  const bindings: Record<string, NativeFunction> = {};
  for (const name of GUARDED) if (originals[name]) bindings[name] = guard(name, originals[name]);
  bindings[CONCAT] = {
    _jsonata_function: true,
    implementation(this: unknown, lhs: unknown, rhs: unknown) {
      const left = lhs === undefined ? '' : (string.call(this, lhs) as string);
      const right = rhs === undefined ? '' : (string.call(this, rhs) as string);
      if (left.length + right.length > JSONATA_STRING_MAX) throw tooLong('A string joined with &');
      return left + right;
    },
  };
  bindings.eval = {
    _jsonata_function: true,
    implementation() {
      throw jsonataError('$eval is not allowed');
    },
  };
  guardBindings = bindings;
})().catch(() => undefined);

const bound = new WeakSet<jsonata.Expression>();

/** Binds the guards into `expression` once; false while they are not loaded yet. */
function bindGuards(expression: jsonata.Expression): boolean {
  if (bound.has(expression)) return true;
  if (!guardBindings) return false;
  for (const [name, fn] of Object.entries(guardBindings)) expression.assign(name, fn);
  bound.add(expression);
  return true;
}

const re2Literals = new WeakMap<RegExp, RE2JS>();

/** A regex for a target's answer: re2js, within the program size. Throws with a message a person reads. */
function compileRegex(source: string, flags = 0): RE2JS {
  const regex = RE2JS.compile(source, flags);
  const size = regex.programSize();
  if (size > REGEX_PROGRAM_MAX)
    throw new Error(
      `the regex is too complex (${size} instructions, at most ${REGEX_PROGRAM_MAX}): use smaller repeats`,
    );
  return regex;
}

/** A JSONata regex literal (a JS RegExp the parser made, never run) as re2js, compiled once per literal. */
function re2Literal(literal: RegExp): RE2JS {
  let regex = re2Literals.get(literal);
  if (!regex) {
    const flags = (literal.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (literal.multiline ? RE2JS.MULTILINE : 0);
    regex = compileRegex(literal.source, flags);
    re2Literals.set(literal, regex);
  }
  return regex;
}

/**
 * jsonata's RegexEngine (the `RegExp` shape it uses: `lastIndex` and a global `exec`) on re2js. jsonata makes
 * one per regex evaluation, so the evaluation's time limit applies to its whole life (a `$match` over a long
 * string runs inside one step, where jsonata's own limit is not checked). One matcher is kept per input.
 */
class Re2RegExp {
  lastIndex = 0;
  readonly #regex: RE2JS;
  readonly #born = performance.now();
  #input: string | undefined;
  #matcher: Matcher | undefined;

  constructor(literal: RegExp) {
    this.#regex = re2Literal(literal);
  }

  exec(input: string): ((string | undefined)[] & { index?: number; input?: string }) | null {
    if (performance.now() - this.#born > JSONATA_LIMITS.timeout)
      throw { code: 'D1012', value: JSONATA_LIMITS.timeout, stack: new Error().stack };
    if (this.#input !== input || !this.#matcher) {
      this.#input = input;
      this.#matcher = this.#regex.matcher(input);
    }
    if (this.lastIndex > input.length || !this.#matcher.find(this.lastIndex)) {
      this.lastIndex = 0;
      return null;
    }
    const matcher = this.#matcher;
    const match: (string | undefined)[] & { index?: number; input?: string } = [matcher.group(0) ?? ''];
    for (let group = 1; group <= matcher.groupCount(); group++) match.push(matcher.group(group) ?? undefined);
    match.index = matcher.start();
    match.input = input;
    this.lastIndex = matcher.end();
    return match;
  }
}

const JSONATA_OPTIONS = { ...JSONATA_LIMITS, RegexEngine: Re2RegExp as unknown as RegExpConstructor };

interface AstNode {
  type?: string;
  value?: unknown;
  position?: number;
  lhs?: unknown;
  rhs?: unknown;
  procedure?: unknown;
  arguments?: unknown[];
}

/**
 * Walks a compiled expression's syntax tree (the one it evaluates): refuses `$eval` (a target's answer is never
 * run as code), compiles regex literals with re2js (so their errors show on save), and turns `a & b` into a
 * call to the guarded concatenation (string doubling is the one way to build a huge string without a built-in).
 */
function harden(root: unknown): string | null {
  const seen = new Set<unknown>();
  const visit = (node: unknown): string | null => {
    if (typeof node !== 'object' || node === null || seen.has(node) || node instanceof RegExp) return null;
    seen.add(node);
    const ast = node as AstNode;
    if (ast.type === 'variable' && ast.value === 'eval')
      return '$eval is not allowed: a target’s answer is never run as code';
    if (ast.type === 'regex' && ast.value instanceof RegExp) {
      try {
        re2Literal(ast.value);
      } catch (error) {
        return `regular expression /${ast.value.source}/: ${messageOf(error)}`;
      }
    }
    if (ast.type === 'binary' && ast.value === '&') {
      const { lhs, rhs } = ast;
      delete ast.lhs;
      delete ast.rhs;
      Object.assign(ast, {
        type: 'function',
        value: '(',
        procedure: { type: 'variable', value: CONCAT, position: ast.position },
        arguments: [lhs, rhs],
      });
    }
    for (const child of Object.values(node)) {
      const problem = Array.isArray(child) ? (child.map(visit).find((p) => p !== null) ?? null) : visit(child);
      if (problem) return problem;
    }
    return null;
  };
  return visit(root);
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}

function compileJsonata(expression: string): { expression: jsonata.Expression } | { error: string } {
  try {
    const compiled = jsonata(expression, JSONATA_OPTIONS);
    const problem = harden(compiled.ast());
    if (problem) return { error: `JSONata: ${problem}` };
    bindGuards(compiled);
    return { expression: compiled };
  } catch (error) {
    const position = (error as { position?: unknown }).position;
    const at = typeof position === 'number' && position > 0 ? ` (at character ${position})` : '';
    return { error: `JSONata: ${messageOf(error)}${at}` };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Compiling

function expectedOf(assertion: Assertion): string {
  if (assertion.op === 'exists') return 'present';
  if (assertion.op === 'missing') return 'missing';
  if (assertion.value === undefined) return '';
  try {
    return formatValue(assertion.value, assertion.source);
  } catch {
    return String(assertion.value);
  }
}

/**
 * Compiled JSONata expressions and regexes by their text, shared by every check that uses the same one: a compiled
 * expression keeps no state between evaluations (jsonata makes a frame per call), and a runner holding 100,000
 * checks mostly holds a few distinct expressions. Bounded; the oldest text is dropped first.
 */
const SHARED_COMPILED_MAX = 2_000;
const sharedExpressions = new Map<string, ReturnType<typeof compileJsonata>>();
const sharedRegexes = new Map<string, RE2JS | { error: string }>();

function sharedCompiled<T>(cache: Map<string, T>, text: string, compile: (text: string) => T): T {
  let entry = cache.get(text);
  if (entry === undefined) {
    entry = compile(text);
    if (cache.size >= SHARED_COMPILED_MAX) cache.delete(cache.keys().next().value!);
    cache.set(text, entry);
  }
  return entry;
}

function compileSharedRegex(source: string): RE2JS | { error: string } {
  try {
    return compileRegex(source);
  } catch (error) {
    return { error: `Regex: ${messageOf(error)}` };
  }
}

function compileOne(assertion: Assertion): Compiled {
  const compiled: Compiled = { assertion, expected: expectedOf(assertion) };
  const problem = checkAssertion(assertion);
  if (problem) return { ...compiled, error: problem };
  const { source, op, value } = assertion;
  if (source.startsWith('json:')) {
    const text = source.slice('json:'.length);
    const result = sharedCompiled(sharedExpressions, text, compileJsonata);
    if ('error' in result) return { ...compiled, error: result.error };
    compiled.expression = result.expression;
  }
  if ((op === 'matches' || op === 'not_matches') && typeof value === 'string') {
    const regex = sharedCompiled(sharedRegexes, value, compileSharedRegex);
    if (!(regex instanceof RE2JS)) return { ...compiled, error: regex.error };
    compiled.regex = regex;
  }
  if (op === 'in' && Array.isArray(value)) {
    const set = { numbers: new Set<number>(), ranges: [] as [number, number][], strings: new Set<string>() };
    for (const item of value) {
      if (typeof item === 'number') set.numbers.add(item);
      else {
        const range = parseRange(item);
        if (range) set.ranges.push(range);
        set.strings.add(item);
      }
    }
    compiled.set = set;
  }
  if ((op === 'contains' || op === 'not_contains') && value !== undefined) compiled.needle = String(value);
  return compiled;
}

/**
 * Compiles a check's assertions once (per check version): JSONata expressions and regexes. A problem (an invalid
 * assertion, a JSONata syntax error, a regex re2 does not take) is reported in `compileErrors`, never thrown;
 * that assertion then fails on every result.
 */
export function compileAssertions(list: readonly Assertion[]): CompiledAssertions {
  const compiled = list.map(compileOne);
  const compileErrors = compiled.flatMap((entry, index) => (entry.error ? [{ index, message: entry.error }] : []));
  return { assertions: list, compileErrors, compiled };
}

/** What the API refuses on save: each assertion that would not compile (JSONata syntax, regexes), by index. */
export function checkAssertionSyntax(list: readonly Assertion[]): AssertionSyntaxError[] {
  return [...compileAssertions(list).compileErrors];
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluating

type Resolved =
  | { kind: 'value'; value: unknown; text: string; items?: readonly unknown[] }
  | { kind: 'missing'; note?: string }
  /** The source could not be evaluated: fails every op. */
  | { kind: 'error'; note: string }
  /** Not judged (a domain's unknown expiry): passes every op. */
  | { kind: 'unknown'; note: string };

const MISSING: Resolved = { kind: 'missing' };

const isFunctionValue = (value: unknown) =>
  typeof value === 'function' ||
  (typeof value === 'object' && value !== null && ('_jsonata_function' in value || '_jsonata_lambda' in value));

/** A value as the text compared and shown: strings as they are, JSON for objects and arrays. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return '';
  if (isFunctionValue(value)) return '(a function)';
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (isFunctionValue(inner) ? '(a function)' : inner)) ?? '';
  } catch {
    return String(value);
  }
}

function resolvedOf(value: unknown, items?: readonly unknown[]): Resolved {
  if (value === undefined) return MISSING;
  return items ? { kind: 'value', value, text: textOf(value), items } : { kind: 'value', value, text: textOf(value) };
}

/** A number from an actual: a finite number, or text that reads as one (a header "42"); null otherwise. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'string' ? parseNumber(value.trim()) : null;
}

/** Cuts `text` to `length` characters without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

function truncate(text: string): string {
  return text.length <= ASSERTION_ACTUAL_MAX ? text : `${cut(text, ASSERTION_ACTUAL_MAX - 1)}…`;
}

/** FNV-1a (32 bits) as 8 hex digits: enough to tell one long value from the next. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** What `changed` stores and compares: the value, or when too long its start and a hash of the whole. */
function changedForm(text: string): string {
  return text.length <= ASSERTION_ACTUAL_MAX ? text : `${cut(text, ASSERTION_ACTUAL_MAX - 10)}…#${hash(text)}`;
}

/** The observation's values for one evaluation; the body is parsed as JSON at most once, when a json: asks. */
class Evaluation {
  #json: { ok: true; value: unknown } | { ok: false } | undefined;
  readonly #jsonResults = new Map<string, Promise<Resolved>>();

  constructor(
    readonly observation: Observation,
    readonly options: EvaluateOptions,
  ) {}

  resolve(compiled: Compiled): Resolved | Promise<Resolved> {
    const observation = this.observation;
    const source = compiled.assertion.source;
    switch (source) {
      case 'status':
        return resolvedOf(observation.status);
      case 'latency_ms':
        return resolvedOf(observation.latency_ms);
      case 'connected':
        return resolvedOf(observation.connected);
      case 'body':
        return resolvedOf(observation.body);
      case 'cert.days_left':
        return resolvedOf(observation.cert?.days_left);
      case 'cert.valid':
        return resolvedOf(observation.cert?.valid);
      case 'cert.fingerprint':
        return resolvedOf(observation.cert?.fingerprint);
      case 'dns.rcode':
        return resolvedOf(observation.dns?.rcode);
      case 'dns.answers': {
        const answers = observation.dns?.answers;
        if (!Array.isArray(answers)) return MISSING;
        const sorted = answers.map(textOf).sort();
        return { kind: 'value', value: sorted, text: sorted.join(', '), items: sorted };
      }
      case 'domain.days_left': {
        const domain = observation.domain;
        if (!domain) return MISSING;
        if (typeof domain.days_left !== 'number')
          return { kind: 'unknown', note: domain.unknown_reason ?? 'the registry publishes no expiry' };
        return resolvedOf(domain.days_left);
      }
      case 'schema':
        return this.#schema();
    }
    if (source.startsWith('header:')) {
      const headers = observation.headers;
      const name = source.slice('header:'.length).toLowerCase();
      return headers && Object.hasOwn(headers, name) ? resolvedOf(headers[name]) : MISSING;
    }
    if (source.startsWith('json:') && compiled.expression) {
      let result = this.#jsonResults.get(source);
      if (!result) {
        result = this.#evaluateJson(compiled.expression);
        this.#jsonResults.set(source, result);
      }
      return result;
    }
    return MISSING;
  }

  #schema(): Resolved {
    const { status, body } = this.observation;
    if (typeof status !== 'number' || typeof body !== 'string' || !this.options.schema) return MISSING;
    try {
      const verdict = this.options.schema(status, body);
      return { kind: 'value', value: verdict.pass === true, text: String(verdict.actual) };
    } catch (error) {
      return { kind: 'error', note: `schema: ${messageOf(error)}` };
    }
  }

  async #evaluateJson(expression: jsonata.Expression): Promise<Resolved> {
    const body = this.observation.body;
    if (typeof body !== 'string') return MISSING;
    if (!this.#json) {
      try {
        this.#json = { ok: true, value: JSON.parse(body) as unknown };
      } catch {
        this.#json = { ok: false };
      }
    }
    if (!this.#json.ok) return { kind: 'missing', note: 'the body is not JSON' };
    if (!bindGuards(expression)) {
      await guardsReady;
      if (!bindGuards(expression)) return { kind: 'error', note: 'JSONata is unavailable' };
    }
    let value: unknown;
    try {
      value = await expression.evaluate(this.#json.value);
    } catch (error) {
      return { kind: 'error', note: `JSONata: ${messageOf(error)}` };
    }
    if (value === undefined) return MISSING;
    const items = Array.isArray(value) ? value : undefined;
    const resolved = resolvedOf(value, items);
    if (resolved.kind === 'value' && resolved.text.length > JSONATA_RESULT_MAX)
      return {
        kind: 'error',
        note: `JSONata: the result is longer than ${JSONATA_RESULT_MAX.toLocaleString('en')} characters`,
      };
    return resolved;
  }
}

function equals(compiled: Compiled, actual: Extract<Resolved, { kind: 'value' }>): boolean {
  const expected = compiled.assertion.value;
  if (typeof expected === 'number') return numberOf(actual.value) === expected;
  if (typeof expected === 'boolean') return actual.value === expected || actual.text === String(expected);
  return actual.text === expected;
}

function inSet(compiled: Compiled, value: unknown): boolean {
  const set = compiled.set!;
  const number = numberOf(value);
  if (number !== null && (set.numbers.has(number) || set.ranges.some(([low, high]) => number >= low && number <= high)))
    return true;
  return set.strings.has(textOf(value));
}

/** Whether an observed value passes the assertion's op (not `changed`, judged with the previous value). */
function holds(compiled: Compiled, actual: Extract<Resolved, { kind: 'value' }>): boolean {
  const { op, value } = compiled.assertion;
  const items = actual.items;
  switch (op) {
    case 'exists':
      return true;
    case 'missing':
      return false;
    case '==':
      return equals(compiled, actual);
    case '!=':
      return !equals(compiled, actual);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const number = numberOf(actual.value);
      if (number === null || typeof value !== 'number') return false;
      return op === '<'
        ? number < value
        : op === '<='
          ? number <= value
          : op === '>'
            ? number > value
            : number >= value;
    }
    case 'in':
      return items ? items.length > 0 && items.every((item) => inSet(compiled, item)) : inSet(compiled, actual.value);
    case 'contains':
    case 'not_contains': {
      const needle = compiled.needle!;
      const found = items ? items.some((item) => textOf(item) === needle) : actual.text.includes(needle);
      return op === 'contains' ? found : !found;
    }
    case 'matches':
    case 'not_matches': {
      const regex = compiled.regex!;
      const found = items ? items.some((item) => regex.test(textOf(item))) : regex.test(actual.text);
      return op === 'matches' ? found : !found;
    }
    default:
      return false;
  }
}

async function evaluateOne(compiled: Compiled, evaluation: Evaluation): Promise<AssertionResult> {
  const { assertion } = compiled;
  const result = (expected: string, actual: string | null, pass: boolean): AssertionResult => ({
    source: String(assertion.source),
    op: assertion.op,
    expected,
    actual,
    pass,
    severity: assertion.severity ?? evaluation.options.importance,
  });
  if (compiled.error) return result(`${compiled.expected} (invalid: ${compiled.error})`, null, false);
  if (assertion.source === 'schema' && !evaluation.options.schema) return result('a response schema', null, false);
  const resolved = await evaluation.resolve(compiled);
  const withNote = (note?: string) => (note ? `${compiled.expected} (${note})` : compiled.expected);

  if (assertion.op === 'changed') {
    const previous = evaluation.options.previous;
    const before = previous && Object.hasOwn(previous, assertion.source) ? previous[assertion.source] : undefined;
    const expected = typeof before === 'string' ? before : 'no previous value';
    if (resolved.kind === 'error') return result(`${expected} (${resolved.note})`, null, false);
    if (resolved.kind === 'unknown') return result(notJudged(expected, resolved.note), null, true);
    if (resolved.kind === 'missing') return result(expected, null, true);
    const actual = changedForm(resolved.text);
    return result(expected, actual, typeof before !== 'string' || before === actual);
  }
  switch (resolved.kind) {
    case 'error':
      return result(withNote(resolved.note), null, false);
    case 'unknown':
      return result(notJudged(compiled.expected, resolved.note), UNKNOWN_ACTUAL, true);
    case 'missing':
      return result(withNote(resolved.note), null, assertion.op === 'missing');
    default:
      return result(compiled.expected, truncate(resolved.text), holds(compiled, resolved));
  }
}

/**
 * Each assertion judged on one observation, in order (see the top for the semantics). Never throws: whatever
 * goes wrong with one assertion fails that one, with `actual: null`.
 */
export async function evaluate(
  compiled: CompiledAssertions,
  observation: Observation,
  options: EvaluateOptions,
): Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  let evaluation: Evaluation;
  try {
    evaluation = new Evaluation(observation ?? ({} as Observation), options);
  } catch {
    return results;
  }
  for (const entry of compiled?.compiled ?? []) {
    try {
      results.push(await evaluateOne(entry, evaluation));
    } catch (error) {
      results.push({
        source: String(entry.assertion?.source),
        op: entry.assertion?.op,
        expected: `${entry.expected} (${messageOf(error)})`,
        actual: null,
        pass: false,
        severity: entry.assertion?.severity ?? options?.importance ?? 'error',
      });
    }
  }
  return results;
}

/** The worst severity among failing assertions; null when none fails. */
export function worstSeverity(results: readonly AssertionResult[]): Importance | null {
  let worst = -1;
  for (const result of results) if (!result.pass) worst = Math.max(worst, IMPORTANCES.indexOf(result.severity));
  return worst < 0 ? null : IMPORTANCES[worst]!;
}

/**
 * What the next evaluation's `previous` should be: each `changed` assertion's actual by source, keeping the
 * earlier value while the source is missing (an outage is not drift, and a change across it still shows).
 */
export function changedValues(
  results: readonly AssertionResult[],
  previous?: Record<string, string | null>,
): Record<string, string | null> {
  const next: Record<string, string | null> = {};
  for (const result of results) {
    if (result.op !== 'changed') continue;
    if (result.actual !== null) next[result.source] = result.actual;
    else if (previous && Object.hasOwn(previous, result.source) && !Object.hasOwn(next, result.source))
      next[result.source] = previous[result.source] ?? null;
  }
  return next;
}
