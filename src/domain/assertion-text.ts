/**
 * The assertion language of health checks (docs/decisions.md#checks, issue 26): the one-line text form people type, its
 * typed form (`Assertion`), and the rules both obey, per check kind. Pure and free of npm imports: the browser
 * bundle uses it for the editor, the server for the API, and src/runner/assertions.ts evaluates what it accepts
 * (JSONata syntax and regexes are compiled there, since they need the engines).
 *
 * Text form, one assertion per line: `<source> <op> [<value>] [<severity>]`, e.g.
 *
 *     status in 200, 204, 300..399
 *     latency_ms < 800 warning
 *     json:$.status == "UP"
 *     header:content-type contains json
 *     cert.fingerprint changed
 *
 * - A value is a number (`800`, `-1.5`, `1e3`), `true`/`false`, a double-quoted string (`\"` and `\\` are its
 *   escapes; any other backslash is kept as it is, so regexes read naturally: `"^\d+$"`) or a bare word (no
 *   spaces, commas or double quotes). `in` takes a comma-separated list whose `a..b` items are inclusive ranges.
 * - A trailing `warning`, `error` or `critical` is the assertion's severity (default: the check's importance).
 * - `matches` searches (unanchored: `^` and `$` anchor) with RE2 syntax, linear time: `(?i)` ignores case, and
 *   there are no lookarounds or backreferences. Header names match whatever their case.
 * - `json:` sources hold a JSONata expression with spaces and operators of its own (`json:$.a != $.b == true`).
 *   The expression runs up to the operator that is the LAST whitespace-separated word outside quotes, brackets,
 *   comments and regex literals for which the rest of the line is a valid value (and severity) and the part
 *   before it does not end like an unfinished JSONata expression (`=`, `<`, `and`, ...). Values cannot hold a bare
 *   operator word (formatting quotes them), so the formatted text always finds its own operator again.
 */
import { ASSERTION_OPS, type Assertion, type AssertionOp, type AssertionValue, type CheckKind } from './check-kinds.js';
import { IMPORTANCES, type Importance } from './health.js';

/** Longest string value (a regex included) and longest JSONata expression: the contract's limits. */
export const ASSERTION_VALUE_MAX = 500;
export const ASSERTION_JSONATA_MAX = 500;
/** An `in` list: at most 50 items of at most 100 characters each (the contract's limits). */
export const ASSERTION_LIST_MAX = 50;
export const ASSERTION_LIST_ITEM_MAX = 100;
export const HEADER_NAME_MAX = 100;

/**
 * What a source yields, which decides the ops and values it takes: `number` and `boolean` sources compare only
 * as such; `text` (headers, body, fingerprint, rcode) takes every op (ordering ops parse the text as a number);
 * `list` (DNS answers) takes equality, `contains`, `matches` and `in` element-wise; `json` takes anything.
 */
export type SourceType = 'number' | 'boolean' | 'text' | 'list' | 'json';

export interface SourceInfo {
  /** The source as written, with `<name>` or `<expression>` where the user fills in. */
  source: string;
  type: SourceType;
  description: string;
  example: string;
}

const SOURCES: Record<string, SourceInfo> = Object.fromEntries(
  (
    [
      ['status', 'number', 'HTTP status code', 'status in 200..299'],
      ['latency_ms', 'number', 'Time to the answer, in milliseconds', 'latency_ms < 800 warning'],
      [
        'header:<name>',
        'text',
        'A response header (repeated ones joined by ", ")',
        'header:content-type contains json',
      ],
      ['body', 'text', 'The response body (tcp: what the peer sent back)', 'body matches "^ok"'],
      ['json:<expression>', 'json', 'A JSONata expression over the JSON body', 'json:$.status == "UP"'],
      ['cert.days_left', 'number', "Days until the chain's first certificate expires", 'cert.days_left >= 14'],
      ['cert.valid', 'boolean', 'The chain verifies and names the host', 'cert.valid == true'],
      ['cert.fingerprint', 'text', 'SHA-256 of the leaf certificate', 'cert.fingerprint changed'],
      ['schema', 'boolean', "The body matches the linked API operation's response schema", 'schema == true'],
      ['connected', 'boolean', 'A connection (dns: an answer) was made', 'connected == true'],
      ['dns.rcode', 'text', 'DNS response code (NOERROR, NXDOMAIN, SERVFAIL, ...)', 'dns.rcode == NOERROR'],
      ['dns.answers', 'list', 'The answers for the record type asked', 'dns.answers contains "1.2.3.4"'],
      ['domain.days_left', 'number', 'Days until the domain registration expires (RDAP)', 'domain.days_left >= 30'],
    ] as const
  ).map(([source, type, description, example]) => [source, { source, type, description, example }]),
);

/**
 * The sources each kind's probe observes. `connected` is offered where a connection or answer is the point;
 * `cert.*` on http means https (on plain http they are missing, so they fail). A heartbeat takes none: it is
 * judged by its pings (late, missing or `/fail`), not by an observation. A domain check offers only its expiry
 * (its RDAP answer is cached a day, so latency says nothing).
 */
const KIND_SOURCES: Record<CheckKind, readonly string[]> = {
  http: [
    'status',
    'latency_ms',
    'header:<name>',
    'body',
    'json:<expression>',
    'cert.days_left',
    'cert.valid',
    'cert.fingerprint',
    'schema',
    'connected',
  ],
  tcp: ['connected', 'latency_ms', 'body'],
  tls: ['connected', 'latency_ms', 'cert.days_left', 'cert.valid', 'cert.fingerprint'],
  dns: ['dns.rcode', 'dns.answers', 'latency_ms', 'connected'],
  domain: ['domain.days_left'],
  heartbeat: [],
};

/** The sources a kind offers, for the editor's hints (in the order to show them). */
export function sourcesFor(kind: CheckKind): readonly SourceInfo[] {
  return (KIND_SOURCES[kind] ?? []).map((key) => SOURCES[key]!);
}

/** The assertions a check of `kind` gets when it names none (docs/decisions.md#checks); a new list each call. */
export function defaultAssertions(kind: CheckKind): Assertion[] {
  switch (kind) {
    case 'http':
      return [{ source: 'status', op: 'in', value: ['200..299'] }];
    case 'tcp':
      return [{ source: 'connected', op: '==', value: true }];
    case 'tls':
      return [
        { source: 'cert.valid', op: '==', value: true },
        { source: 'cert.days_left', op: '>=', value: 14 },
      ];
    case 'dns':
      return [{ source: 'dns.rcode', op: '==', value: 'NOERROR' }];
    case 'domain':
      return [{ source: 'domain.days_left', op: '>=', value: 30 }];
    default:
      return [];
  }
}

/** The table key of a source: `header:<name>` and `json:<expression>` for those families. */
function sourceKey(source: string): string {
  if (source.startsWith('header:')) return 'header:<name>';
  if (source.startsWith('json:')) return 'json:<expression>';
  return source;
}

/** What `source` yields; null when it is no source. */
export function sourceType(source: string): SourceType | null {
  const info = Object.hasOwn(SOURCES, sourceKey(source)) ? SOURCES[sourceKey(source)] : undefined;
  return info ? info.type : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Values

const NUMBER = String.raw`-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?`;
const NUMBER_RE = new RegExp(`^${NUMBER}$`);
const RANGE_RE = new RegExp(`^(${NUMBER})\\.\\.(${NUMBER})$`);
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
const HEADER_TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NO_VALUE_OPS: ReadonlySet<AssertionOp> = new Set(['exists', 'missing', 'changed']);
const ORDER_OPS: ReadonlySet<AssertionOp> = new Set(['<', '<=', '>', '>=']);
const OPS: ReadonlySet<string> = new Set(ASSERTION_OPS);
const SEVERITIES: ReadonlySet<string> = new Set(IMPORTANCES);
const OP_LIST = ASSERTION_OPS.join(', ');

/** The text of a number that reads back as the same number (-0 included). */
function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

/** A number written in the text form (`800`, `-1.5`, `2e3`); null when `text` is not one or not finite. */
export function parseNumber(text: string): number | null {
  if (!NUMBER_RE.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** An `in` range `a..b` (inclusive, a <= b); null when `text` is not one. */
export function parseRange(text: string): [number, number] | null {
  const match = RANGE_RE.exec(text);
  if (!match) return null;
  const low = Number(match[1]);
  const high = Number(match[2]);
  return Number.isFinite(low) && Number.isFinite(high) && low <= high ? [low, high] : null;
}

/**
 * A string written without quotes: a word of letters, digits and `_ . / + -` starting with a letter (`json`,
 * `NOERROR`, `application/json`) that is no keyword, or an `a..b` range. Everything else is quoted, which also
 * keeps numbers-as-text ("200"), keywords ("true", "exists", "warning") and regexes ("^ok") unambiguous.
 */
function isBare(text: string): boolean {
  if (RANGE_RE.test(text)) return true;
  return (
    /^[A-Za-z_][\w./+-]*$/.test(text) && text !== 'true' && text !== 'false' && !OPS.has(text) && !SEVERITIES.has(text)
  );
}

/** Double-quoted; a backslash is doubled only where it would otherwise read as an escape (before `"`, `\`, the end). */
function quote(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') out += '\\"';
    else if (char === '\\') {
      const next = text[i + 1];
      out += next === undefined || next === '"' || next === '\\' ? '\\\\' : '\\';
    } else out += char;
  }
  return out + '"';
}

/**
 * A value in the text form (what an assertion result shows as `expected`, too). Strings compared with a `json:`
 * source are always quoted, as in JSON, so "1" and 1 read differently where both occur.
 */
export function formatValue(value: AssertionValue, source = ''): string {
  const json = source.startsWith('json:');
  const string = (text: string) => (isBare(text) && !(json && !RANGE_RE.test(text)) ? text : quote(text));
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'number' ? formatNumber(item) : string(item))).join(', ');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return String(value);
  return string(value);
}

/** The text form of one assertion: `parseAssertion(formatAssertion(a))` gives `a` back for every valid `a`. */
export function formatAssertion(assertion: Assertion): string {
  const parts = [assertion.source, assertion.op];
  if (assertion.value !== undefined) parts.push(formatValue(assertion.value, assertion.source));
  if (assertion.severity) parts.push(assertion.severity);
  return parts.join(' ');
}

/** One assertion per line. */
export function formatAssertions(list: readonly Assertion[]): string {
  return list.map(formatAssertion).join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing the value part (what follows the operator)

type Token = { kind: 'string' | 'word'; text: string } | { kind: 'comma' };

/** The value part's tokens: quoted strings, bare words and commas; an error for an unclosed quote. */
function tokenize(text: string): Token[] | { error: string } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
    } else if (char === ',') {
      tokens.push({ kind: 'comma' });
      i++;
    } else if (char === '"') {
      let value = '';
      let closed = false;
      for (i++; i < text.length; i++) {
        const c = text[i]!;
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) value += text[++i];
        else value += c;
      }
      if (!closed) return { error: 'A quoted value is missing its closing "' };
      tokens.push({ kind: 'string', text: value });
    } else {
      const start = i;
      while (i < text.length && !/[\s,"]/.test(text[i]!)) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i) });
    }
  }
  return tokens;
}

/** A single value: numbers and true/false from bare words; everything else a string. */
function scalarOf(token: { kind: 'string' | 'word'; text: string }): string | number | boolean | { error: string } {
  if (token.kind === 'string') return token.text;
  if (token.text === 'true') return true;
  if (token.text === 'false') return false;
  if (NUMBER_RE.test(token.text)) {
    const value = parseNumber(token.text);
    return value === null ? { error: `${token.text} is too large a number` } : value;
  }
  return token.text;
}

const tokenText = (token: Token) => (token.kind === 'comma' ? 'a comma' : `"${token.text}"`);
const isSeverity = (token: Token | undefined): token is { kind: 'word'; text: Importance } =>
  token?.kind === 'word' && SEVERITIES.has(token.text);

interface ValuePart {
  value?: AssertionValue;
  severity?: Importance;
}

/** What follows `op`: its value (none, one, or an `in` list) and an optional severity. */
function parseValuePart(op: AssertionOp, rest: string): ValuePart | { error: string } {
  const tokens = tokenize(rest);
  if ('error' in tokens) return tokens;
  const part: ValuePart = {};
  let i = 0;
  if (NO_VALUE_OPS.has(op)) {
    if (tokens.length > 0 && !isSeverity(tokens[0]))
      return { error: `"${op}" takes no value (${tokenText(tokens[0]!)}); only a severity may follow it` };
  } else if (op === 'in') {
    const items: (string | number)[] = [];
    for (;;) {
      const token = tokens[i];
      if (!token || token.kind === 'comma')
        return {
          error: !token
            ? items.length === 0
              ? '"in" needs a list of values, e.g. status in 200..299 or status in 200, 204'
              : 'The list ends with a comma: a value is missing after it'
            : 'A value is missing before a comma',
        };
      const item = token.kind === 'word' && NUMBER_RE.test(token.text) ? scalarOf(token) : token.text;
      if (typeof item === 'object') return item;
      items.push(item as string | number);
      i++;
      if (tokens[i]?.kind !== 'comma') break;
      i++;
    }
    part.value = items;
  } else {
    const token = tokens[0];
    if (!token) return { error: `"${op}" needs a value, e.g. ${exampleFor(op)}` };
    if (token.kind === 'comma') return { error: `"${op}" needs a value before the comma` };
    const value = scalarOf(token);
    if (typeof value === 'object') return value;
    part.value = value;
    i = 1;
    if (tokens[i]?.kind === 'comma')
      return { error: `Only "in" takes a list of values; put a value with commas in double quotes` };
  }
  if (op === 'in' && tokens[i] && !isSeverity(tokens[i]))
    return { error: `Separate the values of "in" with commas: ${tokenText(tokens[i]!)} follows a value without one` };
  if (!NO_VALUE_OPS.has(op) && i < tokens.length && !isSeverity(tokens[i]))
    return {
      error:
        `Unexpected ${tokenText(tokens[i]!)} after the value: put a value with spaces in double quotes ` +
        `("two words"); only a severity (warning, error or critical) may end the line`,
    };
  const severity = tokens[NO_VALUE_OPS.has(op) ? 0 : i];
  if (isSeverity(severity)) {
    part.severity = severity.text;
    const after = tokens[(NO_VALUE_OPS.has(op) ? 0 : i) + 1];
    if (after) return { error: `Unexpected ${tokenText(after)} after the severity: it ends the line` };
  }
  return part;
}

function exampleFor(op: AssertionOp): string {
  switch (op) {
    case 'in':
      return 'status in 200..299';
    case 'contains':
    case 'not_contains':
      return `header:content-type ${op} json`;
    case 'matches':
    case 'not_matches':
      return `body ${op} "^ok"`;
    case '==':
    case '!=':
      return `json:$.status ${op} "UP"`;
    default:
      return `latency_ms ${op} 800`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// JSONata expressions: finding where they end, and whether they look finished

interface Chunk {
  text: string;
  start: number;
  end: number;
}

interface Scan {
  /** Whitespace-separated words outside quotes, brackets, comments and regex literals. */
  chunks: Chunk[];
  /** Why the text is not balanced (an unclosed quote, bracket, comment or regex), else null. */
  problem: string | null;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set([')', ']', '}']);
/** After one of these (or at the start) a `/` opens a JSONata regex literal rather than dividing. */
const BEFORE_REGEX = new Set(['', '(', '[', '{', ',', ':', '?', '=', '!', '<', '>', '+', '-', '&', '~', '|', ';']);

/**
 * Splits a JSONata expression (and what follows it) into its top-level words: a word ends at whitespace outside
 * "…", '…' and `…` quotes (with backslash escapes in the first two), (…) [...] {…}, /* comments *\/ and /regex/
 * literals (a `/` where an operand is expected, as JSONata's tokenizer decides). Lenient: a closer without its
 * opener is ignored, and the problem is reported for checkAssertion.
 */
function scanJsonata(text: string): Scan {
  const chunks: Chunk[] = [];
  const stack: string[] = [];
  let problem: string | null = null;
  let start = -1;
  let last = '';
  const close = (end: number) => {
    if (start >= 0) chunks.push({ text: text.slice(start, end), start, end });
    start = -1;
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (stack.length === 0 && /\s/.test(char)) {
      close(i);
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (char === '"' || char === "'" || char === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== char) j += text[j] === '\\' && char !== '`' ? 2 : 1;
      if (j >= text.length) {
        problem ??= `has an unclosed ${char}`;
        i = text.length;
        break;
      }
      i = j + 1;
      last = char;
      continue;
    }
    if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) {
        problem ??= 'has an unclosed /* comment';
        i = text.length;
        break;
      }
      i = end + 2;
      continue;
    }
    if (char === '/' && BEFORE_REGEX.has(last)) {
      let j = i + 1;
      let depth = 0;
      for (; j < text.length; j++) {
        const c = text[j]!;
        if (c === '\\') j++;
        else if ('([{'.includes(c)) depth++;
        else if (')]}'.includes(c)) depth--;
        else if (c === '/' && depth <= 0) break;
      }
      if (j >= text.length) {
        problem ??= 'has an unclosed /regex/';
        i = text.length;
        break;
      }
      i = j + 1;
      while (text[i] === 'i' || text[i] === 'm') i++;
      last = '/';
      continue;
    }
    if (OPENERS[char]) stack.push(char);
    else if (CLOSERS.has(char)) {
      const opener = stack.pop();
      if (!opener) problem ??= `has a ${char} that closes nothing`;
      else if (OPENERS[opener] !== char) problem ??= `closes ${opener} with ${char}`;
    }
    if (!/\s/.test(char)) last = char;
    i++;
  }
  close(i);
  if (stack.length > 0) problem ??= `has an unclosed ${stack.at(-1)}`;
  return { chunks, problem };
}

/** Characters and words a finished JSONata expression cannot end with: the line's operator was split wrongly. */
const UNFINISHED_END = new Set(['=', '!', '<', '>', '+', '-', '&', ',', '(', '[', '{', ':', '?', '~', '.', ';']);
const UNFINISHED_WORDS = new Set(['and', 'or', 'in']);

function unfinishedEnd(expression: string): string | null {
  const lastChar = expression.at(-1) ?? '';
  if (UNFINISHED_END.has(lastChar)) return lastChar;
  const lastWord = /(?:^|\s)(\S+)$/.exec(expression)?.[1];
  return lastWord && UNFINISHED_WORDS.has(lastWord) ? lastWord : null;
}

/** Why a JSONata expression cannot be a `json:` source (empty, too long, unbalanced, unfinished), else null. */
function jsonExpressionProblem(expression: string): string | null {
  if (expression === '') return 'json: needs a JSONata expression, e.g. json:$.status == "UP"';
  if (expression.length > ASSERTION_JSONATA_MAX)
    return `The JSONata expression is too long (at most ${ASSERTION_JSONATA_MAX} characters)`;
  if (/^\s|\s$/.test(expression)) return 'The JSONata expression must not start or end with a space';
  const { problem } = scanJsonata(expression);
  if (problem) return `The JSONata expression ${problem}`;
  const end = unfinishedEnd(expression);
  if (end) return `The JSONata expression looks unfinished: it ends with "${end}"`;
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Checking an assertion

const SOURCE_ALIASES: Record<string, string> = {
  status_code: 'status',
  code: 'status',
  latency: 'latency_ms',
  response_time: 'latency_ms',
  time: 'latency_ms',
  header: 'header:<name>, e.g. header:content-type',
  headers: 'header:<name>, e.g. header:content-type',
  json: 'json:<JSONata expression>, e.g. json:$.status',
  cert: 'cert.days_left, cert.valid or cert.fingerprint',
  certificate: 'cert.days_left, cert.valid or cert.fingerprint',
  rcode: 'dns.rcode',
  answers: 'dns.answers',
  domain: 'domain.days_left',
};

const SOURCE_LIST =
  'status, latency_ms, header:<name>, body, json:<JSONata expression>, cert.days_left, cert.valid, ' +
  'cert.fingerprint, dns.rcode, dns.answers, domain.days_left, connected, schema';

function unknownSource(source: string): string {
  const lower = source.toLowerCase();
  const hint = SOURCE_ALIASES[lower] ?? (sourceType(lower) ? lower : undefined);
  return hint
    ? `Unknown source "${source}": did you mean ${hint}?`
    : `Unknown source "${source}": use one of ${SOURCE_LIST}`;
}

const OP_ALIASES: Record<string, string> = {
  '=': '==',
  '===': '==',
  eq: '==',
  is: '==',
  equals: '==',
  '<>': '!=',
  '!==': '!=',
  ne: '!=',
  '=<': '<=',
  '=>': '>=',
  '~': 'matches',
  '=~': 'matches',
  '~=': 'matches',
  '!~': 'not_matches',
  match: 'matches',
  has: 'contains',
  includes: 'contains',
  contain: 'contains',
  '!contains': 'not_contains',
  exist: 'exists',
  present: 'exists',
  absent: 'missing',
  changes: 'changed',
};

function unknownOp(op: string): string {
  const hint = OP_ALIASES[op] ?? OP_ALIASES[op.toLowerCase()] ?? (OPS.has(op.toLowerCase()) ? op.toLowerCase() : null);
  return hint ? `"${op}" is not an operator: use ${hint}` : `"${op}" is not an operator: use one of ${OP_LIST}`;
}

/** Why a source string is no source (unknown, a bad header name, a bad JSONata expression), else null. */
function sourceProblem(source: string): string | null {
  if (CONTROL_RE.test(source)) return 'The source must not contain control characters (tabs, line breaks)';
  if (source.startsWith('header:')) {
    const name = source.slice('header:'.length);
    if (name === '') return 'header: needs a header name, e.g. header:content-type';
    if (name.length > HEADER_NAME_MAX) return `The header name is too long (at most ${HEADER_NAME_MAX} characters)`;
    if (!HEADER_TOKEN_RE.test(name)) return `"${name}" is not a header name (letters, digits and - _ . ! # $ etc.)`;
    return null;
  }
  if (source.startsWith('json:')) return jsonExpressionProblem(source.slice('json:'.length));
  return sourceType(source) ? null : unknownSource(source);
}

/** Why a string value cannot be used (too long, control characters), else null. */
function stringProblem(text: string, max: number, what: string): string | null {
  if (text.length > max) return `${what} is too long (at most ${max} characters)`;
  if (CONTROL_RE.test(text)) return `${what} must not contain control characters (in a regex, write \\n or \\t)`;
  return null;
}

const typeName = (value: unknown) =>
  Array.isArray(value) ? 'a list' : typeof value === 'string' ? `"${value}"` : String(value);

/** Whether `op` and `value` fit each other, whatever the source. */
function valueProblem(op: AssertionOp, value: unknown): string | null {
  if (NO_VALUE_OPS.has(op)) return value === undefined ? null : `"${op}" takes no value (got ${typeName(value)})`;
  if (value === undefined || value === null) return `"${op}" needs a value, e.g. ${exampleFor(op)}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'A number must be finite';
  if (typeof value === 'string') {
    const problem = stringProblem(
      value,
      ASSERTION_VALUE_MAX,
      op === 'matches' || op === 'not_matches' ? 'The regex' : 'The value',
    );
    if (problem) return problem;
  }
  if (op === 'in') {
    if (!Array.isArray(value)) return `"in" takes a list, e.g. status in 200, 204, 300..399`;
    if (value.length === 0) return '"in" needs at least one value';
    if (value.length > ASSERTION_LIST_MAX) return `"in" takes at most ${ASSERTION_LIST_MAX} values`;
    for (const item of value as unknown[]) {
      if (typeof item === 'number') {
        if (!Number.isFinite(item)) return 'A number must be finite';
      } else if (typeof item === 'string') {
        const problem = stringProblem(item, ASSERTION_LIST_ITEM_MAX, 'A list value');
        if (problem) return problem;
        const range = RANGE_RE.exec(item);
        if (range && !parseRange(item)) return `The range ${item} is backwards: write the smaller number first`;
      } else return `"in" takes numbers, ranges (200..299) and strings, not ${typeName(item)}`;
    }
    return null;
  }
  if (Array.isArray(value)) return `Only "in" takes a list of values`;
  if (ORDER_OPS.has(op))
    return typeof value === 'number'
      ? null
      : `"${op}" compares numbers, e.g. latency_ms ${op} 800 (not ${typeName(value)})`;
  if (op === 'matches' || op === 'not_matches') {
    if (typeof value !== 'string') return `"${op}" takes a regex in double quotes, e.g. body ${op} "^ok"`;
    return value === '' ? 'The regex is empty' : null;
  }
  if (op === 'contains' || op === 'not_contains')
    return typeof value === 'string' || typeof value === 'number'
      ? null
      : `"${op}" takes a string: write "${String(value)}" in double quotes to mean the text`;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? null
    : `"${op}" takes a number, a string or true/false`;
}

const sourceName = (source: string) => (source.startsWith('header:') ? source : sourceKey(source));

/** Whether the source's type takes `op` at all (a number source compares, a boolean one is == or !=, ...). */
function opFitProblem(source: string, type: SourceType, op: AssertionOp): string | null {
  if (NO_VALUE_OPS.has(op) || type === 'json' || type === 'text') return null;
  const name = sourceName(source);
  if (type === 'number' && !['==', '!=', '<', '<=', '>', '>=', 'in'].includes(op))
    return `${name} is a number: compare it with ==, !=, <, <=, >, >= or in`;
  if (type === 'boolean' && op !== '==' && op !== '!=')
    return `${name} is true or false: use ${name} == true (or false)`;
  if (type === 'list' && ORDER_OPS.has(op)) return `${name} is a list: use contains, matches, in or ==`;
  return null;
}

/** Whether the source's type takes `value` (once op and value fit each other). */
function valueFitProblem(source: string, type: SourceType, op: AssertionOp, value: unknown): string | null {
  if (NO_VALUE_OPS.has(op)) return null;
  const name = sourceName(source);
  if (type === 'number') {
    if (op === 'in') {
      const bad = (value as (string | number)[]).find((item) => typeof item === 'string' && !parseRange(item));
      return bad === undefined ? null : `${name} takes numbers and ranges like 200..299, not "${bad}"`;
    }
    return typeof value === 'number' ? null : `${name} is a number: compare it with a number, not ${typeName(value)}`;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? null : `${name} is true or false, not ${typeName(value)}`;
  return null;
}

/**
 * Why an assertion is not valid whatever the check's kind (source, op, value and severity, and how they fit),
 * else null. JSONata syntax and regexes are checked by the runner (checkAssertionSyntax), which needs the engines.
 */
export function checkAssertion(assertion: Assertion): string | null {
  if (typeof assertion !== 'object' || assertion === null) return 'An assertion is { source, op, value?, severity? }';
  const { source, op, value, severity } = assertion as {
    source: unknown;
    op: unknown;
    value?: unknown;
    severity?: unknown;
  };
  if (typeof source !== 'string' || source === '') return 'An assertion needs a source, e.g. status';
  const problem = sourceProblem(source);
  if (problem) return problem;
  if (typeof op !== 'string' || !OPS.has(op)) return unknownOp(String(op));
  if (severity !== undefined && (typeof severity !== 'string' || !SEVERITIES.has(severity)))
    return `The severity is one of ${IMPORTANCES.join(', ')}`;
  const type = sourceType(source)!;
  return (
    opFitProblem(source, type, op as AssertionOp) ??
    valueProblem(op as AssertionOp, value) ??
    valueFitProblem(source, type, op as AssertionOp, value)
  );
}

/**
 * Why `assertion` does not hold for a check of `kind`, else null: checkAssertion, and the source must be one the
 * kind observes (sourcesFor). A heartbeat takes no assertions.
 */
export function validateAssertion(kind: CheckKind, assertion: Assertion): string | null {
  const problem = checkAssertion(assertion);
  if (problem) return problem;
  const key = sourceKey(assertion.source);
  const offered = KIND_SOURCES[kind] ?? [];
  if (offered.includes(key)) return null;
  if (offered.length === 0)
    return 'A heartbeat takes no assertions: it fails when a ping is late or missing, or on a /fail ping';
  return `A ${kind} check has no ${key}: its sources are ${offered.join(', ')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing lines

type Parsed = { assertion: Assertion } | { error: string };

function build(source: string, op: AssertionOp, part: ValuePart): Parsed {
  const assertion: Assertion = { source, op };
  if (part.value !== undefined) assertion.value = part.value;
  if (part.severity) assertion.severity = part.severity;
  const problem = checkAssertion(assertion);
  return problem ? { error: problem } : { assertion };
}

/** A `json:` line: the expression ends at the last operator word after which the line parses (see the top). */
function parseJsonLine(text: string): Parsed {
  const rest = text.slice('json:'.length);
  const scan = scanJsonata(rest);
  const candidates = scan.chunks.filter((chunk) => OPS.has(chunk.text));
  let firstError: string | null = null;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const candidate = candidates[i]!;
    const expression = rest.slice(0, candidate.start).trim();
    if (expression === '') {
      firstError ??= 'json: needs a JSONata expression before the operator, e.g. json:$.status == "UP"';
      continue;
    }
    if (unfinishedEnd(expression)) continue;
    const part = parseValuePart(candidate.text as AssertionOp, rest.slice(candidate.end));
    const parsed = 'error' in part ? part : build(`json:${expression}`, candidate.text as AssertionOp, part);
    if ('assertion' in parsed) return parsed;
    firstError ??= parsed.error;
  }
  if (firstError) return { error: firstError };
  if (rest.trim() === '') return { error: 'json: needs a JSONata expression, e.g. json:$.status == "UP"' };
  if (scan.problem) return { error: `The JSONata expression ${scan.problem}, so no operator follows it` };
  return {
    error:
      `No operator after the JSONata expression: end it with one (${OP_LIST}) with spaces around it, ` +
      'e.g. json:$.status == "UP"',
  };
}

/** One line of the text form as an assertion, or why it is not one (a message for the person who typed it). */
export function parseAssertion(line: string): Parsed {
  const text = line.trim();
  if (text === '') return { error: 'Empty: write an assertion such as status in 200..299' };
  if (text.startsWith('json:')) return parseJsonLine(text);
  const match = /^(\S+)(?:\s+(\S+))?/.exec(text)!;
  const source = match[1]!;
  const op = match[2];
  const problem = sourceProblem(source);
  if (problem) return { error: problem };
  if (op === undefined) {
    const example = SOURCES[sourceKey(source)]?.example ?? 'status in 200..299';
    return { error: `"${source}" needs an operator after it (${OP_LIST}), e.g. ${example}` };
  }
  if (!OPS.has(op)) return { error: unknownOp(op) };
  const part = parseValuePart(op as AssertionOp, text.slice(match[0].length));
  return 'error' in part ? part : build(source, op as AssertionOp, part);
}

/** The text form: one assertion per line; blank lines and lines starting with `#` are skipped. Lines count from 1. */
export function parseAssertions(text: string): {
  assertions: Assertion[];
  errors: { line: number; message: string }[];
} {
  const assertions: Assertion[] = [];
  const errors: { line: number; message: string }[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parsed = parseAssertion(line);
    if ('error' in parsed) errors.push({ line: index + 1, message: parsed.error });
    else assertions.push(parsed.assertion);
  });
  return { assertions, errors };
}
