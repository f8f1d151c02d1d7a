import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASSERTION_JSONATA_MAX,
  ASSERTION_VALUE_MAX,
  checkAssertion,
  defaultAssertions,
  formatAssertion,
  formatAssertions,
  formatValue,
  parseAssertion,
  parseAssertions,
  parseRange,
  sourcesFor,
  sourceType,
  validateAssertion,
} from '../../../src/domain/assertion-text.js';
import { ASSERTION_OPS, CHECK_KINDS, type Assertion, type CheckKind } from '../../../src/domain/check-kinds.js';
import { IMPORTANCES } from '../../../src/domain/health.js';

const parsed = (line: string): Assertion => {
  const result = parseAssertion(line);
  if ('error' in result) throw new Error(`${line}: ${result.error}`);
  return result.assertion;
};
const errorOf = (line: string): string => {
  const result = parseAssertion(line);
  if (!('error' in result)) throw new Error(`${line} parsed: ${JSON.stringify(result.assertion)}`);
  return result.error;
};

describe('parseAssertion: the examples of the assertion language (docs/api.md#health-checks-kinds-and-assertions)', () => {
  it.each<[string, Assertion]>([
    ['status in 200..299', { source: 'status', op: 'in', value: ['200..299'] }],
    ['status in 200, 204, 300..399', { source: 'status', op: 'in', value: [200, 204, '300..399'] }],
    ['latency_ms < 800 warning', { source: 'latency_ms', op: '<', value: 800, severity: 'warning' }],
    ['json:$.status == "UP"', { source: 'json:$.status', op: '==', value: 'UP' }],
    ['cert.days_left >= 14', { source: 'cert.days_left', op: '>=', value: 14 }],
    ['header:content-type contains json', { source: 'header:content-type', op: 'contains', value: 'json' }],
    ['cert.fingerprint changed', { source: 'cert.fingerprint', op: 'changed' }],
    ['body matches "^ok"', { source: 'body', op: 'matches', value: '^ok' }],
    ['dns.answers contains "1.2.3.4"', { source: 'dns.answers', op: 'contains', value: '1.2.3.4' }],
    ['connected == true', { source: 'connected', op: '==', value: true }],
    ['domain.days_left >= 30 critical', { source: 'domain.days_left', op: '>=', value: 30, severity: 'critical' }],
    ['header:x-version exists', { source: 'header:x-version', op: 'exists' }],
  ])('%s', (line, assertion) => {
    expect(parsed(line)).toEqual(assertion);
    expect(parseAssertion(formatAssertion(assertion))).toEqual({ assertion });
  });
});

describe('parseAssertion: every source and op', () => {
  it.each<[string, Assertion]>([
    ['status == 200', { source: 'status', op: '==', value: 200 }],
    ['status != 500', { source: 'status', op: '!=', value: 500 }],
    ['latency_ms <= 1500.5', { source: 'latency_ms', op: '<=', value: 1500.5 }],
    ['latency_ms > -1', { source: 'latency_ms', op: '>', value: -1 }],
    ['latency_ms < 2e3 error', { source: 'latency_ms', op: '<', value: 2000, severity: 'error' }],
    ['status in -5..5, 1e2', { source: 'status', op: 'in', value: ['-5..5', 100] }],
    ['header:X-Request-Id exists', { source: 'header:X-Request-Id', op: 'exists' }],
    ['header:retry-after missing', { source: 'header:retry-after', op: 'missing' }],
    ['header:x-ratelimit-remaining > 10', { source: 'header:x-ratelimit-remaining', op: '>', value: 10 }],
    [
      'header:cache-control not_contains no-store',
      { source: 'header:cache-control', op: 'not_contains', value: 'no-store' },
    ],
    ['header:server in nginx, "Apache httpd"', { source: 'header:server', op: 'in', value: ['nginx', 'Apache httpd'] }],
    ['body contains "Welcome back"', { source: 'body', op: 'contains', value: 'Welcome back' }],
    ['body contains 42', { source: 'body', op: 'contains', value: 42 }],
    ['body not_matches "(?i)error|exception"', { source: 'body', op: 'not_matches', value: '(?i)error|exception' }],
    ['body matches ^\\d+$', { source: 'body', op: 'matches', value: '^\\d+$' }],
    ['body changed warning', { source: 'body', op: 'changed', severity: 'warning' }],
    ['cert.valid == true', { source: 'cert.valid', op: '==', value: true }],
    ['cert.valid != false', { source: 'cert.valid', op: '!=', value: false }],
    ['cert.days_left < 7 critical', { source: 'cert.days_left', op: '<', value: 7, severity: 'critical' }],
    ['cert.fingerprint == "AB:CD"', { source: 'cert.fingerprint', op: '==', value: 'AB:CD' }],
    ['dns.rcode == NOERROR', { source: 'dns.rcode', op: '==', value: 'NOERROR' }],
    ['dns.rcode in NOERROR, NXDOMAIN', { source: 'dns.rcode', op: 'in', value: ['NOERROR', 'NXDOMAIN'] }],
    ['dns.answers matches "^10\\."', { source: 'dns.answers', op: 'matches', value: '^10\\.' }],
    ['dns.answers in "1.2.3.4", "5.6.7.8"', { source: 'dns.answers', op: 'in', value: ['1.2.3.4', '5.6.7.8'] }],
    ['dns.answers changed', { source: 'dns.answers', op: 'changed' }],
    ['connected != false', { source: 'connected', op: '!=', value: false }],
    ['schema == true', { source: 'schema', op: '==', value: true }],
    ['domain.days_left exists', { source: 'domain.days_left', op: 'exists' }],
    ['json:$.version changed', { source: 'json:$.version', op: 'changed' }],
    ['json:$.ok == false', { source: 'json:$.ok', op: '==', value: false }],
    ['json:$.count >= 3', { source: 'json:$.count', op: '>=', value: 3 }],
    ['json:$.tags contains beta', { source: 'json:$.tags', op: 'contains', value: 'beta' }],
    ['json:$.code in 0, "ok"', { source: 'json:$.code', op: 'in', value: [0, 'ok'] }],
  ])('%s', (line, assertion) => {
    expect(parsed(line)).toEqual(assertion);
  });

  it('reads quoted strings with \\" and \\\\ as escapes and keeps any other backslash', () => {
    expect(parsed('body contains "say \\"hi\\""').value).toBe('say "hi"');
    expect(parsed('body contains "C:\\\\temp"').value).toBe('C:\\temp');
    expect(parsed('body matches "^\\d+\\s"').value).toBe('^\\d+\\s');
    expect(parsed('body contains ""').value).toBe('');
    expect(parsed('body contains "a, b"').value).toBe('a, b');
    expect(parsed('body contains "warning"').value).toBe('warning');
    expect(parsed('body contains "200"').value).toBe('200');
    expect(parsed('json:$.on == "true"').value).toBe('true');
  });

  it('takes spaces around the parts and a severity after a quoted value', () => {
    expect(parsed('   status   in   200 ,204,   300..399   error ')).toEqual({
      source: 'status',
      op: 'in',
      value: [200, 204, '300..399'],
      severity: 'error',
    });
    expect(parsed('body contains "x y" critical')).toEqual({
      source: 'body',
      op: 'contains',
      value: 'x y',
      severity: 'critical',
    });
  });

  it('takes a severity word as the value where a value is due', () => {
    expect(parsed('json:$.level == warning')).toEqual({ source: 'json:$.level', op: '==', value: 'warning' });
    expect(parsed('json:$.level == warning error')).toEqual({
      source: 'json:$.level',
      op: '==',
      value: 'warning',
      severity: 'error',
    });
  });
});

describe('parseAssertion: where a JSONata expression ends', () => {
  it.each<[string, string, string]>([
    ['json:$.a != $.b == true', '$.a != $.b', '=='],
    ['json:$.items[status = "x"] exists', '$.items[status = "x"]', 'exists'],
    ['json:$.state == changed', '$.state', '=='],
    ['json:$.msg contains "a == b"', '$.msg', 'contains'],
    ['json:$count($.items[type in ["a", "b"]]) > 1', '$count($.items[type in ["a", "b"]])', '>'],
    ['json:$.a in [1, 2] == true', '$.a in [1, 2]', '=='],
    ['json:$.a < 5 == true', '$.a < 5', '=='],
    ['json:$.a and $.b or $.c == false', '$.a and $.b or $.c', '=='],
    ['json:  $.x   ==   1', '$.x', '=='],
    ["json:$.name = 'it''s == x' exists", "$.name = 'it''s == x'", 'exists'],
    ['json:$match($.v, /a == (b)/) exists', '$match($.v, /a == (b)/)', 'exists'],
    ['json:$contains($.v, /^ok"/i) == true', '$contains($.v, /^ok"/i)', '=='],
    ['json:$.`odd == name` missing', '$.`odd == name`', 'missing'],
    ['json:$.a /* == */ + 1 > 2', '$.a /* == */ + 1', '>'],
    ['json:$.a / 2 > 1', '$.a / 2', '>'],
    ['json:$.* exists', '$.*', 'exists'],
    ['json:$.x == exists', '$.x', '=='],
    ['json:$.list in in, exists', '$.list', 'in'],
    ['json:exists exists', 'exists', 'exists'],
  ])('%s', (line, expression, op) => {
    const assertion = parsed(line);
    expect(assertion.source).toBe(`json:${expression}`);
    expect(assertion.op).toBe(op);
    expect(parseAssertion(formatAssertion(assertion))).toEqual({ assertion });
  });
});

describe('parseAssertion: errors a person understands', () => {
  it.each<[string, RegExp]>([
    ['', /Empty: write an assertion such as status in 200\.\.299/],
    ['stauts == 200', /Unknown source "stauts": use one of status, latency_ms, header:<name>/],
    ['Status == 200', /Unknown source "Status": did you mean status\?/],
    ['latency < 800', /did you mean latency_ms\?/],
    ['header == x', /did you mean header:<name>, e.g. header:content-type\?/],
    ['header: exists', /header: needs a header name/],
    ['header:content type exists', /"type" is not an operator/],
    ['header:content(type) exists', /"content\(type\)" is not a header name/],
    ['status', /"status" needs an operator after it .*e\.g\. status in 200\.\.299/],
    ['status = 200', /"=" is not an operator: use ==/],
    ['status <> 500', /"<>" is not an operator: use !=/],
    ['body ~= "x"', /use matches/],
    ['status equalz 200', /"equalz" is not an operator: use one of ==, !=/],
    ['status in', /"in" needs a list of values, e.g. status in 200\.\.299/],
    ['status in 200 204', /Separate the values of "in" with commas/],
    ['status in 200,', /The list ends with a comma/],
    ['status in 200,,204', /A value is missing before a comma/],
    ['status ==', /"==" needs a value, e.g./],
    ['status == 200 300', /Unexpected "300" after the value/],
    ['status == 200 fatal', /only a severity \(warning, error or critical\) may end the line/],
    ['status == 200 warning error', /Unexpected "error" after the severity/],
    ['status == "200"', /status is a number: compare it with a number, not "200"/],
    ['status contains 2', /status is a number: compare it with ==, !=, <, <=, >, >= or in/],
    ['status in 200..299, ok', /status takes numbers and ranges like 200\.\.299, not "ok"/],
    ['status in 299..200', /The range 299\.\.200 is backwards/],
    ['status == 1e999', /too large a number/],
    ['latency_ms < fast', /"<" compares numbers, e.g. latency_ms < 800 \(not "fast"\)/],
    ['latency_ms == fast', /latency_ms is a number: compare it with a number, not "fast"/],
    ['connected == yes', /connected is true or false, not "yes"/],
    ['cert.valid contains true', /cert.valid is true or false: use cert.valid == true/],
    ['body contains hello world', /put a value with spaces in double quotes/],
    ['body contains a,b', /Only "in" takes a list of values/],
    ['body contains "abc', /A quoted value is missing its closing "/],
    ['body contains true', /write "true" in double quotes to mean the text/],
    ['body matches 42', /"matches" takes a regex in double quotes/],
    ['body matches ""', /The regex is empty/],
    ['body < "x"', /"<" compares numbers/],
    ['cert.fingerprint changed 3', /"changed" takes no value \("3"\)/],
    ['header:x exists yes', /"exists" takes no value/],
    ['dns.answers > 3', /dns.answers is a list: use contains, matches, in or ==/],
    ['json:$.x', /No operator after the JSONata expression/],
    ['json:', /json: needs a JSONata expression/],
    ['json: == 1', /json: needs a JSONata expression before the operator/],
    ['json:$.items[ == 1', /The JSONata expression has an unclosed \[/],
    ['json:$.a = == 1', /"==" needs a value|No operator|unfinished/],
    ['json:$.a == "x', /A quoted value is missing its closing "/],
  ])('%j', (line, message) => {
    expect(errorOf(line)).toMatch(message);
  });

  it('refuses values and expressions over their limits', () => {
    expect(errorOf(`body contains "${'x'.repeat(ASSERTION_VALUE_MAX + 1)}"`)).toMatch(/too long \(at most 500/);
    expect(errorOf(`body matches "${'x'.repeat(ASSERTION_VALUE_MAX + 1)}"`)).toMatch(/The regex is too long/);
    expect(errorOf(`json:$.${'a'.repeat(ASSERTION_JSONATA_MAX)} exists`)).toMatch(/expression is too long/);
    expect(parseAssertion(`json:$.${'a'.repeat(ASSERTION_JSONATA_MAX - 2)} exists`)).toHaveProperty('assertion');
    expect(errorOf(`header:${'x'.repeat(101)} exists`)).toMatch(/header name is too long/);
    expect(errorOf(`status in ${Array.from({ length: 51 }, (_, i) => 100 + i).join(', ')}`)).toMatch(/at most 50/);
  });
});

describe('parseAssertions', () => {
  it('reads one assertion per line, skips blank and # lines, and numbers errors by line', () => {
    const text = [
      '# the API answers',
      'status in 200..299',
      '',
      '   ',
      'latency_ms < 800 warning',
      'status = 200',
      '  # indented comment',
      'json:$.status == "UP"\r',
      'bogus',
    ].join('\n');
    const result = parseAssertions(text);
    expect(result.assertions).toEqual([
      { source: 'status', op: 'in', value: ['200..299'] },
      { source: 'latency_ms', op: '<', value: 800, severity: 'warning' },
      { source: 'json:$.status', op: '==', value: 'UP' },
    ]);
    expect(result.errors).toEqual([
      { line: 6, message: '"=" is not an operator: use ==' },
      { line: 9, message: expect.stringMatching(/^Unknown source "bogus"/) },
    ]);
    expect(parseAssertions('')).toEqual({ assertions: [], errors: [] });
  });
});

describe('formatAssertion', () => {
  it('writes the text form: bare words where they read back, quotes elsewhere', () => {
    const lines = [
      'status in 200, 204, 300..399',
      'latency_ms < 800 warning',
      'json:$.status == "UP"',
      'json:$.code in 0, "ok", 1..3',
      'header:content-type contains json',
      'body matches "^ok"',
      'dns.answers contains "1.2.3.4"',
      'dns.rcode == NOERROR',
      'body contains "say \\"hi\\""',
      'body contains "ends with \\\\"',
      'body matches "^\\d+$"',
      'body contains "200"',
      'body contains "exists"',
      'body contains "true"',
      'cert.fingerprint changed critical',
    ];
    for (const line of lines) expect(formatAssertion(parsed(line))).toBe(line);
    expect(formatAssertion({ source: 'status', op: '==', value: -0 })).toBe('status == -0');
    expect(formatAssertions([parsed('status == 200'), parsed('connected == true')])).toBe(
      'status == 200\nconnected == true',
    );
  });

  it('shows values as the text form does', () => {
    expect(formatValue(['200..299', 404])).toBe('200..299, 404');
    expect(formatValue('UP', 'json:$.status')).toBe('"UP"');
    expect(formatValue('UP', 'body')).toBe('UP');
    expect(formatValue(true)).toBe('true');
  });
});

describe('validateAssertion', () => {
  const a = (source: string, op: Assertion['op'], value?: Assertion['value']): Assertion =>
    value === undefined ? { source, op } : { source, op, value };

  it.each<[CheckKind, Assertion]>([
    ['http', a('status', 'in', ['200..299'])],
    ['http', a('header:etag', 'changed')],
    ['http', a('json:$.ok', '==', true)],
    ['http', a('cert.days_left', '>=', 14)],
    ['http', a('schema', '==', true)],
    ['http', a('connected', '==', true)],
    ['tcp', a('connected', '==', true)],
    ['tcp', a('body', 'contains', 'SSH-2.0')],
    ['tcp', a('latency_ms', '<', 100)],
    ['tls', a('cert.valid', '==', true)],
    ['tls', a('cert.fingerprint', 'changed')],
    ['dns', a('dns.rcode', '==', 'NOERROR')],
    ['dns', a('dns.answers', 'contains', '1.2.3.4')],
    ['dns', a('latency_ms', '<', 50)],
    ['domain', a('domain.days_left', '>=', 30)],
  ])('%s takes %j', (kind, assertion) => {
    expect(validateAssertion(kind, assertion)).toBeNull();
  });

  it.each<[CheckKind, Assertion, RegExp]>([
    ['tcp', a('status', '==', 200), /A tcp check has no status: its sources are connected, latency_ms, body/],
    ['tcp', a('json:$.a', 'exists'), /A tcp check has no json:<expression>/],
    ['tls', a('body', 'contains', 'x'), /A tls check has no body/],
    ['dns', a('cert.valid', '==', true), /A dns check has no cert.valid/],
    ['domain', a('latency_ms', '<', 5), /A domain check has no latency_ms: its sources are domain.days_left/],
    ['http', a('dns.rcode', '==', 'NOERROR'), /A http check has no dns.rcode/],
    ['heartbeat', a('latency_ms', '<', 5), /A heartbeat takes no assertions/],
  ])('%s refuses %j', (kind, assertion, message) => {
    expect(validateAssertion(kind, assertion)).toMatch(message);
  });

  it('wants a value exactly when the op needs one, of a type the op and source take', () => {
    expect(validateAssertion('http', a('status', '==') as Assertion)).toMatch(/"==" needs a value/);
    expect(validateAssertion('http', a('header:x', 'exists', 'y'))).toMatch(/"exists" takes no value/);
    expect(validateAssertion('http', a('header:x', 'missing', 1))).toMatch(/"missing" takes no value/);
    expect(validateAssertion('http', a('status', 'in', 200))).toMatch(/"in" takes a list/);
    expect(validateAssertion('http', a('status', 'in', []))).toMatch(/at least one value/);
    expect(validateAssertion('http', a('status', '==', [200]))).toMatch(/Only "in" takes a list/);
    expect(validateAssertion('http', a('latency_ms', '<', Number.NaN))).toMatch(/finite/);
    expect(validateAssertion('http', a('body', 'contains', 'a\nb'))).toMatch(/control characters/);
    expect(validateAssertion('http', { source: 'status', op: 'like' as Assertion['op'], value: 1 })).toMatch(
      /"like" is not an operator/,
    );
    expect(validateAssertion('http', { ...a('status', '==', 200), severity: 'fatal' as never })).toMatch(/severity/);
    expect(validateAssertion('http', a('header:bad name', 'exists'))).toMatch(/is not a header name/);
    expect(validateAssertion('http', a('json: $.x', 'exists'))).toMatch(/must not start or end with a space/);
    expect(validateAssertion('http', a('json:$.x =', 'exists'))).toMatch(/looks unfinished: it ends with "="/);
    expect(validateAssertion('http', a('json:$.x[0', 'exists'))).toMatch(/has an unclosed \[/);
    expect(validateAssertion('http', a('json:$.x]', 'exists'))).toMatch(/a \] that closes nothing/);
    expect(validateAssertion('http', a('json:"abc', 'exists'))).toMatch(/unclosed "/);
    expect(validateAssertion('http', a('body', 'matches', 'x'.repeat(501)))).toMatch(/The regex is too long/);
    expect(validateAssertion('http', a('body', 'matches', 'x'.repeat(500)))).toBeNull();
  });

  it('offers each kind its sources, for the editor', () => {
    expect(sourcesFor('tcp').map((info) => info.source)).toEqual(['connected', 'latency_ms', 'body']);
    expect(sourcesFor('heartbeat')).toEqual([]);
    expect(sourcesFor('http').find((info) => info.source === 'json:<expression>')).toMatchObject({
      type: 'json',
      example: 'json:$.status == "UP"',
    });
    for (const kind of CHECK_KINDS)
      for (const info of sourcesFor(kind)) expect(validateAssertion(kind, parsed(info.example))).toBeNull();
    expect(sourceType('header:x')).toBe('text');
    expect(sourceType('nope')).toBeNull();
  });

  it('gives each kind its defaults, valid for the kind', () => {
    expect(formatAssertions(defaultAssertions('http'))).toBe('status in 200..299');
    expect(formatAssertions(defaultAssertions('tcp'))).toBe('connected == true');
    expect(formatAssertions(defaultAssertions('tls'))).toBe('cert.valid == true\ncert.days_left >= 14');
    expect(formatAssertions(defaultAssertions('dns'))).toBe('dns.rcode == NOERROR');
    expect(formatAssertions(defaultAssertions('domain'))).toBe('domain.days_left >= 30');
    expect(defaultAssertions('heartbeat')).toEqual([]);
    for (const kind of CHECK_KINDS)
      for (const assertion of defaultAssertions(kind)) expect(validateAssertion(kind, assertion)).toBeNull();
    defaultAssertions('http')[0]!.op = '==';
    expect(defaultAssertions('http')[0]!.op).toBe('in');
  });

  it('reads ranges', () => {
    expect(parseRange('200..299')).toEqual([200, 299]);
    expect(parseRange('-1.5..2e1')).toEqual([-1.5, 20]);
    expect(parseRange('5..1')).toBeNull();
    expect(parseRange('a..b')).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

/** Characters that stress the text form: quotes, escapes, separators, brackets, operators, non-ASCII. */
const tricky = fc.constantFrom(
  ...'aZ09 _-.,:;"\'`\\/#()[]{}=<>!&|~*?$%^+é😀\u00a0'.split(''),
  '==',
  ' in ',
  ' exists',
  '..',
);
const trickyString = fc.oneof(
  fc.string({ unit: tricky, maxLength: 12 }),
  fc.constantFrom('true', 'false', 'warning', 'exists', 'in', '200', '-0', '1..2', '5..1', 'NOERROR', '', ' '),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const number = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(-0),
);
const range = fc
  .tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: 0, max: 500 }))
  .map(([low, span]) => `${low}..${low + span}`);
const jsonExpression = fc.oneof(
  fc.constantFrom(
    '$.status',
    '$',
    '$.*',
    '**.version',
    '$.a.%.b',
    '$count($.items)',
    '$.items[status = "UP"]',
    "$.name = 'x == y'",
    '$.`odd name`',
    '$match($.v, /(\\d+) == x/)',
    '$.a != $.b',
    '$.a in [1, 2]',
    '$.a and $.b',
    '$.n / 2',
    '$string($.n) & " ms"',
    '$.a /* exists */',
    '$ ~> |$|{"x": 1}|',
  ),
  fc.string({ unit: tricky, minLength: 1, maxLength: 20 }),
);
const source = fc.oneof(
  fc.constantFrom(
    'status',
    'latency_ms',
    'body',
    'cert.days_left',
    'cert.valid',
    'cert.fingerprint',
    'dns.rcode',
    'dns.answers',
    'domain.days_left',
    'connected',
    'schema',
  ),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/).map((name) => `header:${name}`),
  jsonExpression.map((expression) => `json:${expression}`),
);
const value = fc.oneof(
  number,
  fc.boolean(),
  trickyString,
  fc.array(fc.oneof(number, range, trickyString), { minLength: 1, maxLength: 5 }),
);
const anyAssertion = fc
  .record(
    {
      source,
      op: fc.constantFrom(...ASSERTION_OPS),
      value,
      severity: fc.constantFrom(...IMPORTANCES),
    },
    { requiredKeys: ['source', 'op'] },
  )
  .map((assertion) => assertion as Assertion);
const validAssertion = anyAssertion.filter((assertion) => checkAssertion(assertion) === null);

describe('properties', () => {
  it('text and typed forms round-trip for every valid assertion', () => {
    fc.assert(
      fc.property(validAssertion, (assertion) => {
        const text = formatAssertion(assertion);
        expect(text).not.toMatch(/\n/);
        expect(parseAssertion(text)).toEqual({ assertion });
      }),
      { seed: 26, numRuns: 3000 },
    );
  });

  it('a list round-trips through the text form', () => {
    fc.assert(
      fc.property(fc.array(validAssertion, { maxLength: 10 }), (list) => {
        expect(parseAssertions(formatAssertions(list))).toEqual({ assertions: list, errors: [] });
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it('parsing any line never throws, and what it accepts is valid and formats back to itself', () => {
    const line = fc.oneof(
      fc.string({ unit: tricky, maxLength: 40 }),
      fc
        .tuple(source, fc.constantFrom(...ASSERTION_OPS, '=', ''), fc.string({ unit: tricky, maxLength: 20 }))
        .map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(line, (text) => {
        const result = parseAssertion(text);
        if ('error' in result) {
          expect(result.error.length).toBeGreaterThan(0);
          return;
        }
        expect(checkAssertion(result.assertion)).toBeNull();
        expect(parseAssertion(formatAssertion(result.assertion))).toEqual(result);
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  it('valid assertions from the generator cover every op and source type', () => {
    const samples = fc.sample(validAssertion, { seed: 3, numRuns: 2000 });
    expect(new Set(samples.map((assertion) => assertion.op))).toEqual(new Set(ASSERTION_OPS));
    expect(new Set(samples.map((assertion) => sourceType(assertion.source)))).toEqual(
      new Set(['number', 'boolean', 'text', 'list', 'json']),
    );
    expect(samples.some((assertion) => assertion.source.startsWith('json:') && / /.test(assertion.source))).toBe(true);
  });
});
