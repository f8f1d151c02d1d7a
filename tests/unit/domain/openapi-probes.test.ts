import { describe, expect, it } from 'vitest';
import { formatAssertions, parseAssertions, validateAssertion } from '../../../src/domain/assertion-text.js';
import {
  matchOperation,
  specOperations,
  specProbes,
  type ProbeProposal,
  type SpecOperationRef,
} from '../../../src/domain/openapi-probes.js';

const json = (schema: unknown = { type: 'object' }) => ({ content: { 'application/json': { schema } } });

/** An OpenAPI 3.0 spec written for these tests: one operation per rule. */
const spec30 = {
  openapi: '3.0.3',
  info: { title: 'Items', version: '2.1.0' },
  servers: [
    {
      url: 'https://{region}.api.example.com/{base}',
      variables: { region: { default: 'eu', enum: ['eu', 'us'] }, base: { default: 'v1' } },
    },
    { url: 'https://staging.example.com/v1' },
  ],
  security: [{ apiKey: [] }],
  paths: {
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Is it up?',
        security: [],
        responses: { '200': { content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
      head: { operationId: 'healthHead', security: [], responses: { '204': { description: 'Up' } } },
    },
    '/items': {
      get: {
        operationId: 'listItems',
        description: '\n  Lists items.\nMore text.',
        parameters: [
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', default: 20 } },
          { name: 'q', in: 'query', required: true, example: 'red & blue' },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            content: {
              'application/xml': { schema: { type: 'object' } },
              'application/json; charset=utf-8': { schema: { type: 'array' } },
            },
          },
          '4XX': { description: 'Bad' },
        },
      },
      post: { operationId: 'createItem', requestBody: json(), responses: { '201': json() } },
    },
    '/items/{id}': {
      parameters: [
        { $ref: '#/components/parameters/ItemId' },
        { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', enum: ['acme', 'other'] } },
      ],
      get: {
        operationId: 'getItem',
        responses: { '2XX': json({ $ref: '#/components/schemas/Item' }), default: json() },
      },
      delete: { responses: { '204': { description: 'Gone' } } },
    },
    '/items/{id}/history': {
      get: {
        operationId: 'itemHistory',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': json() },
      },
    },
    '/search': {
      get: {
        operationId: 'search',
        requestBody: json(),
        responses: { '200': json() },
      },
    },
    '/reports': {
      get: {
        operationId: 'reports',
        servers: [{ url: 'https://reports.example.com/' }],
        parameters: [{ name: 'X-Report', in: 'header', required: true, schema: { type: 'string' } }],
        responses: { default: { content: { 'application/problem+json': { schema: { type: 'object' } } } } },
      },
    },
    '/exports': {
      get: {
        operationId: 'exports',
        parameters: [
          { name: 'X-Api-Version', in: 'header', required: true, examples: { v2: { value: '2' } } },
          { name: 'Authorization', in: 'header', required: true },
        ],
        security: [{}, { apiKey: [] }],
        responses: { '200': { content: { '*/*': { schema: { type: 'object' } } } } },
      },
    },
    '/broken': { get: { operationId: 'broken' } },
    '/errors-only': { get: { operationId: 'errorsOnly', responses: { '404': json() } } },
  },
  components: {
    parameters: {
      ItemId: { name: 'id', in: 'path', required: true, schema: { type: 'string', example: 'a/b c' } },
    },
    schemas: { Item: { type: 'object' } },
  },
};

/** An OpenAPI 3.1 spec with relative servers and a path item `$ref`. */
const spec31 = {
  openapi: '3.1.0',
  info: { title: 'Users' },
  servers: [{ url: '/v1' }],
  paths: {
    '/users/{userId}': { $ref: '#/components/pathItems/User' },
    '/ping': { get: { responses: { '200': { description: 'pong' } } }, servers: [{ url: 'https://ping.example.com' }] },
  },
  components: {
    pathItems: {
      User: {
        get: {
          operationId: 'getUser',
          parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'integer', examples: [42] } }],
          responses: { '200': json({ type: 'object' }) },
        },
      },
    },
  },
};

const probe = (probes: ProbeProposal[], id: string) => {
  const found = probes.find((proposal) => proposal.operation_id === id);
  if (!found) throw new Error(`no probe ${id}`);
  return found;
};

describe('specProbes: OpenAPI 3.0', () => {
  const result = specProbes(spec30);
  const get = (id: string) => probe(result.probes, id);

  it('reads the title, version and servers (variables filled from their defaults)', () => {
    expect(result.title).toBe('Items');
    expect(result.version).toBe('2.1.0');
    expect(result.openapi).toBe('3.0.3');
    expect(result.servers).toEqual([
      {
        url: 'https://eu.api.example.com/v1',
        variables: { region: { default: 'eu', enum: ['eu', 'us'] }, base: { default: 'v1' } },
      },
      { url: 'https://staging.example.com/v1', variables: {} },
    ]);
  });

  it('lists every operation in document order, skipped ones with their reason', () => {
    expect(result.probes.map((proposal) => [proposal.operation_id, proposal.reason_skipped ?? null])).toEqual([
      ['health', null],
      ['healthHead', null],
      ['listItems', null],
      ['createItem', 'Only GET and HEAD operations are probed'],
      ['getItem', null],
      ['DELETE /items/{id}', 'Only GET and HEAD operations are probed'],
      ['itemHistory', 'The required parameter id has no example or default'],
      ['search', 'It takes a request body'],
      ['reports', "Needs the header X-Report, which the check's request settings must carry"],
      ['exports', null],
      ['broken', 'It documents no responses'],
      ['errorsOnly', 'It documents no success response'],
    ]);
  });

  it('proposes a GET with its URL, codes, media type, auth and assertions', () => {
    expect(get('health')).toEqual({
      operation_id: 'health',
      method: 'GET',
      path: '/health',
      summary: 'Is it up?',
      url: 'https://eu.api.example.com/v1/health',
      success_codes: ['200'],
      content_type: 'text/plain',
      needs_auth: false,
      assertions: [
        { source: 'status', op: 'in', value: [200] },
        { source: 'header:content-type', op: 'contains', value: 'text/plain' },
      ],
    });
  });

  it('proposes a HEAD without a schema assertion', () => {
    const head = get('healthHead');
    expect(head.method).toBe('HEAD');
    expect(head.reason_skipped).toBeUndefined();
    expect(head.assertions).toEqual([{ source: 'status', op: 'in', value: [204] }]);
    expect(head.content_type).toBeNull();
  });

  it('fills required query parameters (URL-encoded) and leaves optional ones out', () => {
    const list = get('listItems');
    expect(list.url).toBe('https://eu.api.example.com/v1/items?limit=20&q=red%20%26%20blue');
    expect(list.summary).toBe('Lists items.');
    expect(list.needs_auth).toBe(true);
    // application/json wins over the XML listed first; the assertion compares the type without its parameters.
    expect(list.content_type).toBe('application/json; charset=utf-8');
    expect(list.assertions).toEqual([
      { source: 'status', op: 'in', value: [200] },
      { source: 'header:content-type', op: 'contains', value: 'application/json' },
      { source: 'schema', op: '==', value: true },
    ]);
  });

  it('merges path-level and $ref parameters, fills path parameters and required headers', () => {
    const item = get('getItem');
    expect(item.reason_skipped).toBeUndefined();
    expect(item.url).toBe('https://eu.api.example.com/v1/items/a%2Fb%20c');
    expect(item.headers).toEqual({ 'X-Tenant': 'acme' });
    expect(item.success_codes).toEqual(['2XX']);
    expect(item.assertions[0]).toEqual({ source: 'status', op: 'in', value: ['200..299'] });
  });

  it('lets an operation parameter override the path-level one by name and location', () => {
    const history = get('itemHistory');
    expect(history.reason_skipped).toBe('The required parameter id has no example or default');
    expect(history.url).toBeNull();
    expect(history.assertions).toEqual([]);
  });

  it('uses operation-level servers, and status 200..399 when only default is documented', () => {
    const reports = specProbes({
      ...spec30,
      paths: {
        '/reports': {
          get: { ...spec30.paths['/reports'].get, parameters: [] },
        },
      },
    }).probes[0]!;
    expect(reports.url).toBe('https://reports.example.com/reports');
    expect(reports.success_codes).toEqual(['default']);
    expect(reports.content_type).toBe('application/problem+json');
    expect(reports.assertions).toEqual([
      { source: 'status', op: 'in', value: ['200..399'] },
      { source: 'header:content-type', op: 'contains', value: 'application/problem+json' },
      { source: 'schema', op: '==', value: true },
    ]);
  });

  it('takes examples from `examples`, ignores Authorization, and sees optional auth', () => {
    const exports = get('exports');
    expect(exports.headers).toEqual({ 'X-Api-Version': '2' });
    expect(exports.needs_auth).toBe(false);
    // A wildcard media type: no header to compare with, but the body is validated as JSON.
    expect(exports.content_type).toBe('*/*');
    expect(exports.assertions).toEqual([
      { source: 'status', op: 'in', value: [200] },
      { source: 'schema', op: '==', value: true },
    ]);
  });

  it('keeps a buildable URL on skipped operations, and none when it cannot be built', () => {
    expect(get('createItem').url).toBe('https://eu.api.example.com/v1/items');
    expect(get('createItem').assertions).toEqual([]);
    expect(get('DELETE /items/{id}').success_codes).toEqual(['204']);
    expect(get('reports').url).toBeNull();
  });

  it('sorts success codes and skips error codes', () => {
    const doc = {
      openapi: '3.0.0',
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/a': {
          get: { responses: { '404': json(), '204': {}, '2XX': {}, '200': json(), '301': {}, default: json() } },
        },
      },
    };
    const [only] = specProbes(doc).probes;
    expect(only!.success_codes).toEqual(['200', '204', '2XX', '301']);
    expect(only!.assertions[0]).toEqual({ source: 'status', op: 'in', value: [200, 204, '200..299', 301] });
  });

  it('skips the required parameter without any example, and cuts long summaries', () => {
    const doc = {
      openapi: '3.0.1',
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/a': {
          get: {
            summary: 'x'.repeat(300),
            parameters: [{ name: 'mode', in: 'query', required: true, schema: { type: 'string' } }],
            responses: { '200': {} },
          },
        },
        '/b/{kind}': {
          get: {
            parameters: [{ name: 'kind', in: 'path', required: true, schema: { enum: ['x y', 'z'] } }],
            responses: { '200': {} },
          },
        },
      },
    };
    const [a, b] = specProbes(doc).probes;
    expect(a!.reason_skipped).toBe('The required parameter mode has no example or default');
    expect(a!.summary).toHaveLength(200);
    expect(a!.summary!.endsWith('…')).toBe(true);
    expect(b!.url).toBe('https://x.example.com/b/x%20y');
  });

  it('writes array and object examples as their style says', () => {
    const doc = {
      openapi: '3.0.1',
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/s/{ids}/{label}{matrix}': {
          get: {
            parameters: [
              { name: 'ids', in: 'path', required: true, example: [1, 2] },
              { name: 'label', in: 'path', required: true, style: 'label', example: 'l' },
              { name: 'matrix', in: 'path', required: true, style: 'matrix', example: 'm' },
              { name: 'tags', in: 'query', required: true, example: ['a', 'b c'] },
              { name: 'csv', in: 'query', required: true, explode: false, example: ['x', 'y'] },
              { name: 'filter', in: 'query', required: true, style: 'deepObject', example: { color: 'red' } },
              { name: 'X-Ids', in: 'header', required: true, example: [3, 4] },
              { name: 'session', in: 'cookie', required: true, example: 'abc' },
            ],
            responses: { '200': {} },
          },
        },
      },
    };
    const [only] = specProbes(doc).probes;
    expect(only!.url).toBe('https://x.example.com/s/1,2/.l;matrix=m?tags=a&tags=b%20c&csv=x,y&filter%5Bcolor%5D=red');
    expect(only!.headers).toEqual({ 'X-Ids': '3,4', Cookie: 'session=abc' });
  });

  it('skips a path parameter the spec does not describe, and a $ref parameter that is missing', () => {
    const doc = {
      openapi: '3.0.1',
      servers: [{ url: 'https://x.example.com' }],
      paths: {
        '/a/{id}': { get: { responses: { '200': {} } } },
        '/b': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }], responses: { '200': {} } } },
      },
    };
    const [a, b] = specProbes(doc).probes;
    expect(a!.reason_skipped).toBe('The path parameter id is not described in the spec');
    expect(b!.reason_skipped).toBe('The parameter #/components/parameters/Nope cannot be found in the spec');
  });
});

describe('specProbes: servers', () => {
  it('fills server variables from options.variables', () => {
    const result = specProbes(spec30, { variables: { region: 'us' } });
    expect(result.servers[0]!.url).toBe('https://us.api.example.com/v1');
    expect(probe(result.probes, 'health').url).toBe('https://us.api.example.com/v1/health');
  });

  it('replaces the spec server with the chosen one, but keeps an operation’s own servers', () => {
    const result = specProbes(spec30, { server: 'https://staging.example.com/v1' });
    expect(probe(result.probes, 'health').url).toBe('https://staging.example.com/v1/health');
    const reports = specProbes(
      { ...spec30, paths: { '/reports': { get: { ...spec30.paths['/reports'].get, parameters: [] } } } },
      { server: 'https://staging.example.com/v1' },
    ).probes[0]!;
    expect(reports.url).toBe('https://reports.example.com/reports');
  });

  it('cannot probe a relative server until one is chosen, then appends its path', () => {
    const plain = specProbes(spec31);
    expect(plain.openapi).toBe('3.1.0');
    expect(plain.version).toBeNull();
    expect(plain.servers).toEqual([{ url: '/v1', variables: {} }]);
    const user = probe(plain.probes, 'getUser');
    expect(user.url).toBeNull();
    expect(user.reason_skipped).toBe("The spec's server URL is relative: choose a server");
    // The operation's own absolute server needs no choice.
    expect(probe(plain.probes, 'GET /ping').url).toBe('https://ping.example.com/ping');

    for (const server of ['https://api.example.com', 'https://api.example.com/', 'https://api.example.com/v1']) {
      const chosen = probe(specProbes(spec31, { server }).probes, 'getUser');
      expect(chosen.reason_skipped).toBeUndefined();
      expect(chosen.url).toBe('https://api.example.com/v1/users/42');
    }
  });

  it('treats a spec without servers as served from /', () => {
    const doc = { openapi: '3.1.0', paths: { '/a': { get: { responses: { '200': {} } } } } };
    expect(specProbes(doc).probes[0]!.reason_skipped).toBe("The spec's server URL is relative: choose a server");
    expect(specProbes(doc, { server: 'http://127.0.0.1:8080/' }).probes[0]!.url).toBe('http://127.0.0.1:8080/a');
  });

  it('needs a value for a server variable without a default', () => {
    const doc = {
      openapi: '3.0.0',
      servers: [{ url: 'https://{tenant}.example.com', variables: { tenant: { description: 'Yours' } } }],
      paths: { '/a': { get: { responses: { '200': {} } } } },
    };
    expect(specProbes(doc).probes[0]!.reason_skipped).toBe('The server variable tenant has no value');
    expect(specProbes(doc, { variables: { tenant: 'acme' } }).probes[0]!.url).toBe('https://acme.example.com/a');
    expect(specProbes(doc, { server: 'https://x.example.com' }).probes[0]!.url).toBe('https://x.example.com/a');
  });

  it('refuses a chosen server that is not http(s), and a server of another scheme', () => {
    expect(specProbes(spec31, { server: 'ftp://x' }).probes[0]!.reason_skipped).toBe(
      'The chosen server is not an http or https URL',
    );
    const ws = { ...spec31, servers: [{ url: 'wss://x.example.com' }] };
    expect(probe(specProbes(ws).probes, 'getUser').reason_skipped).toBe("The spec's server URL is not http or https");
  });
});

describe('specProbes: assertions', () => {
  it('render in the text form and parse back the same', () => {
    const proposals = [...specProbes(spec30).probes, ...specProbes(spec31, { server: 'https://a.example.com' }).probes];
    const probed = proposals.filter((proposal) => !proposal.reason_skipped);
    expect(probed.length).toBeGreaterThan(5);
    for (const proposal of probed) {
      for (const assertion of proposal.assertions) expect(validateAssertion('http', assertion)).toBeNull();
      const text = formatAssertions(proposal.assertions);
      expect(parseAssertions(text)).toEqual({ assertions: proposal.assertions, errors: [] });
    }
    expect(formatAssertions(probe(proposals, 'listItems').assertions)).toBe(
      'status in 200\nheader:content-type contains application/json\nschema == true',
    );
  });
});

describe('specProbes: other documents', () => {
  it('skips every operation of a Swagger 2.0 spec', () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      host: 'api.example.com',
      paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
    };
    const result = specProbes(swagger);
    expect(result.openapi).toBeNull();
    expect(result.servers).toEqual([]);
    expect(result.probes).toHaveLength(1);
    expect(result.probes[0]!.reason_skipped).toBe('Only OpenAPI 3.0 and 3.1 specs are probed');
    expect(result.probes[0]!.assertions).toEqual([]);
  });

  it('answers empty for anything that is no document', () => {
    for (const doc of [null, undefined, 'openapi: 3.0.0', 42, [], { openapi: '3.0.0', paths: 'x' }]) {
      expect(specProbes(doc).probes).toEqual([]);
      expect(specOperations(doc)).toEqual([]);
    }
  });

  it('reads `openapi: 3.1` that YAML parsed as a number', () => {
    expect(specProbes({ openapi: 3.1, paths: {} }).openapi).toBe('3.1');
  });

  it('does not modify the document', () => {
    const copy = structuredClone(spec30);
    specProbes(spec30, { server: 'https://x.example.com', variables: { region: 'us' } });
    expect(spec30).toEqual(copy);
  });
});

describe('specOperations and matchOperation', () => {
  it('lists every operation, with operationId or METHOD path', () => {
    expect(specOperations(spec30).slice(0, 6)).toEqual([
      { operation_id: 'health', method: 'GET', path: '/health' },
      { operation_id: 'healthHead', method: 'HEAD', path: '/health' },
      { operation_id: 'listItems', method: 'GET', path: '/items' },
      { operation_id: 'createItem', method: 'POST', path: '/items' },
      { operation_id: 'getItem', method: 'GET', path: '/items/{id}' },
      { operation_id: 'DELETE /items/{id}', method: 'DELETE', path: '/items/{id}' },
    ]);
    expect(specOperations(spec31)).toEqual([
      { operation_id: 'getUser', method: 'GET', path: '/users/{userId}' },
      { operation_id: 'GET /ping', method: 'GET', path: '/ping' },
    ]);
  });

  const next: SpecOperationRef[] = [
    { operation_id: 'fetchItem', method: 'GET', path: '/items/{itemId}' },
    { operation_id: 'health', method: 'GET', path: '/status' },
    { operation_id: 'DELETE /items/{itemId}', method: 'DELETE', path: '/items/{itemId}' },
    { operation_id: 'listItems', method: 'GET', path: '/items' },
  ];

  it('finds an operation by its operationId first, wherever it moved', () => {
    expect(matchOperation({ operation_id: 'health', method: 'GET', path: '/health' }, next)).toBe(next[1]);
  });

  it('else by method and path, whatever the parameters are named', () => {
    expect(matchOperation({ operation_id: 'getItem', method: 'GET', path: '/items/{id}' }, next)).toBe(next[0]);
    expect(matchOperation({ operation_id: 'DELETE /items/{id}', method: 'DELETE', path: '/items/{id}' }, next)).toBe(
      next[2],
    );
    expect(matchOperation({ operation_id: 'GET /items', method: 'get', path: '/items' }, next)).toBe(next[3]);
  });

  it('answers null when the operation is gone', () => {
    expect(matchOperation({ operation_id: 'createItem', method: 'POST', path: '/items' }, next)).toBeNull();
    expect(matchOperation({ operation_id: 'getItem', method: 'PUT', path: '/items/{id}' }, next)).toBeNull();
  });
});

describe('specProbes: speed', () => {
  it('proposes the checks of a 500-operation spec well under a second', () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      const param = { name: 'id', in: 'path', required: true, schema: { type: 'string', example: `x-${i}` } };
      paths[`/resources${i}/{id}`] = {
        parameters: [param],
        get: {
          operationId: `get${i}`,
          parameters: [{ name: 'expand', in: 'query', required: true, schema: { enum: ['all', 'none'] } }],
          responses: { '200': json({ $ref: '#/components/schemas/Resource' }), '404': json() },
        },
        head: { operationId: `head${i}`, responses: { '200': {} } },
        put: { operationId: `put${i}`, requestBody: json(), responses: { '200': json() } },
        patch: { operationId: `patch${i}`, requestBody: json(), responses: { '200': json() } },
        delete: { operationId: `delete${i}`, responses: { '204': {} } },
      };
    }
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Big', version: '1' },
      servers: [{ url: 'https://api.example.com/v1' }],
      paths,
      components: { schemas: { Resource: { type: 'object' } } },
    };
    const started = performance.now();
    const result = specProbes(doc);
    const ms = performance.now() - started;
    console.log(`specProbes over 500 operations: ${ms.toFixed(1)} ms`);
    expect(result.probes).toHaveLength(500);
    expect(result.probes.filter((proposal) => !proposal.reason_skipped)).toHaveLength(200);
    expect(probe(result.probes, 'get7').url).toBe('https://api.example.com/v1/resources7/x-7?expand=all');
    expect(ms).toBeLessThan(1000);
  });
});
