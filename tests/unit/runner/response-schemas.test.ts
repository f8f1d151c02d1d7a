import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCHEMA_VALUE_MAX } from '../../../src/domain/schema-failure.js';
import {
  formatSchemaFailure,
  parseSchemaFailure,
  specSchemas,
  type SchemaFailure,
  type SchemaVerdict,
} from '../../../src/runner/response-schemas.js';
import { startServer } from './test-server.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** An OpenAPI 3.0 spec written for these tests. */
const spec30 = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        responses: {
          '200': json({ type: 'array', items: { $ref: '#/components/schemas/Item' } }),
          '404': { $ref: '#/components/responses/NotFound' },
          '5XX': json({ $ref: '#/components/schemas/Problem' }),
          default: json({ type: 'object', required: ['message'] }),
        },
      },
      head: { operationId: 'headItems', responses: { '200': json({ type: 'array' }) } },
    },
    '/items/{id}': {
      get: {
        responses: {
          '200': json({ $ref: '#/components/schemas/Item' }),
          '204': { description: 'Nothing' },
        },
      },
      delete: { operationId: 'deleteItem', responses: { '204': { description: 'Gone' } } },
    },
    '/tree': { get: { operationId: 'tree', responses: { '200': json({ $ref: '#/components/schemas/Node' }) } } },
    '/pets': {
      get: {
        operationId: 'pets',
        responses: { '200': json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }) },
      },
    },
    '/strict': {
      get: {
        operationId: 'strict',
        responses: {
          '200': json({
            type: 'object',
            additionalProperties: false,
            properties: { id: { type: 'integer', format: 'int32' }, note: { type: 'string' } },
          }),
        },
      },
    },
    '/formats': {
      get: {
        operationId: 'formats',
        responses: {
          '200': json({
            type: 'object',
            properties: {
              at: { type: 'string', format: 'date-time' },
              id: { type: 'string', format: 'uuid' },
              email: { type: 'string', format: 'email' },
              count: { type: 'integer', format: 'int32' },
              big: { type: 'integer', format: 'int64' },
              ratio: { type: 'number', format: 'double' },
              secret: { type: 'string', format: 'password' },
              blob: { type: 'string', format: 'binary' },
              color: { type: 'string', format: 'x-company-color' },
              score: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
            },
          }),
        },
      },
    },
    '/text': {
      get: {
        operationId: 'text',
        responses: { '200': { content: { 'text/plain': { schema: { type: 'integer' } } } } },
      },
    },
    '/any': {
      get: { operationId: 'any', responses: { '200': { content: { '*/*': { schema: { type: 'object' } } } } } },
    },
    '/patterns': {
      get: {
        operationId: 'patterns',
        responses: {
          '200': json({
            type: 'object',
            properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, odd: { type: 'string', pattern: '^(?!x)' } },
          }),
        },
      },
    },
  },
  components: {
    responses: { NotFound: json({ $ref: '#/components/schemas/Problem' }) },
    schemas: {
      Item: {
        type: 'object',
        required: ['id', 'price'],
        properties: {
          id: { type: 'integer' },
          price: { type: 'number' },
          label: { type: 'string', nullable: true },
          status: { type: 'string', enum: ['new', 'sold'], nullable: true },
          owner: { $ref: '#/components/schemas/Owner' },
          // A property named like an OpenAPI keyword stays a property.
          nullable: { type: 'boolean' },
          example: { type: 'string' },
        },
      },
      Owner: { nullable: true, allOf: [{ type: 'object', required: ['name'] }] },
      Problem: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
      Node: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind' },
      },
      Cat: {
        type: 'object',
        required: ['kind', 'lives'],
        properties: { kind: { enum: ['cat'] }, lives: { type: 'integer' } },
      },
      Dog: {
        type: 'object',
        required: ['kind', 'bark'],
        properties: { kind: { enum: ['dog'] }, bark: { type: 'object', properties: { loud: { type: 'boolean' } } } },
      },
    },
  },
};

/** An OpenAPI 3.1 spec: JSON Schema 2020-12 with `type: [.., 'null']`. */
const spec31 = {
  openapi: '3.1.0',
  info: { title: 'Users', version: '1' },
  paths: {
    '/users/{id}': {
      get: {
        operationId: 'getUser',
        responses: {
          '2XX': {
            content: {
              'application/vnd.users+json; version=2': { schema: { $ref: '#/components/schemas/User' } },
              'application/xml': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      User: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          nickname: { type: ['string', 'null'] },
          age: { type: 'integer', exclusiveMinimum: 0 },
          tags: { type: 'array', prefixItems: [{ const: 'first' }] },
          manager: { $ref: '#/components/schemas/User' },
        },
        unevaluatedProperties: false,
      },
    },
  },
};

const item = { id: 1, price: 9.5, label: null, status: null, owner: null, nullable: true, example: 'x' };

function check(doc: unknown, operationId: string, status: number, body: unknown): SchemaVerdict {
  const validate = specSchemas(doc).validator(operationId);
  if (!validate) throw new Error(`no operation ${operationId}`);
  return validate(status, typeof body === 'string' ? body : JSON.stringify(body));
}

const failureOf = (verdict: SchemaVerdict): SchemaFailure => {
  expect(verdict.pass).toBe(false);
  expect(verdict.actual).toBe(formatSchemaFailure(verdict.failure!));
  return verdict.failure!;
};

describe('specSchemas: OpenAPI 3.0', () => {
  it('passes a body that matches, through $refs to components', () => {
    expect(check(spec30, 'listItems', 200, [item, { id: 2, price: 3, status: 'new', owner: { name: 'Ann' } }])).toEqual(
      {
        pass: true,
        actual: 'valid',
      },
    );
  });

  it('fails a wrong type with its pointer, rule, message and value', () => {
    const verdict = check(spec30, 'listItems', 200, [item, { ...item, price: '12' }]);
    expect(failureOf(verdict)).toEqual({ pointer: '/1/price', rule: 'type', message: 'must be number', value: '"12"' });
    expect(verdict.actual).toBe('/1/price: must be number (type), got "12"');
  });

  it('fails a missing required property', () => {
    const failure = failureOf(check(spec30, 'listItems', 200, [{ id: 1 }]));
    expect(failure).toEqual({
      pointer: '/0',
      rule: 'required',
      message: "must have required property 'price'",
      value: '{"id":1}',
    });
  });

  it('turns nullable into null allowed, for plain types, enums and allOf', () => {
    expect(check(spec30, 'listItems', 200, [{ ...item, label: 'x', status: 'sold' }]).pass).toBe(true);
    expect(failureOf(check(spec30, 'listItems', 200, [{ ...item, status: 'lost' }])).pointer).toBe('/0/status');
    expect(failureOf(check(spec30, 'listItems', 200, [{ ...item, label: 3 }]))).toMatchObject({
      pointer: '/0/label',
      message: 'must be string,null',
    });
    expect(failureOf(check(spec30, 'listItems', 200, [{ ...item, owner: {} }]))).toMatchObject({
      pointer: '/0/owner',
      rule: 'required',
    });
  });

  it('does not touch the caller’s document', () => {
    const copy = structuredClone(spec30);
    check(spec30, 'listItems', 200, [item]);
    check(spec30, 'formats', 200, {});
    expect(spec30).toEqual(copy);
  });

  it('follows circular references', () => {
    const tree = { name: 'root', children: [{ name: 'a', children: [{ name: 'b', children: [] }] }] };
    expect(check(spec30, 'tree', 200, tree).pass).toBe(true);
    const bad = { name: 'root', children: [{ name: 'a', children: [{ children: [] }] }] };
    expect(failureOf(check(spec30, 'tree', 200, bad))).toMatchObject({
      pointer: '/children/0/children/0',
      rule: 'required',
      message: "must have required property 'name'",
    });
  });

  it('checks oneOf, reporting the branch that got furthest', () => {
    expect(
      check(spec30, 'pets', 200, [
        { kind: 'cat', lives: 9 },
        { kind: 'dog', bark: { loud: true } },
      ]).pass,
    ).toBe(true);
    expect(failureOf(check(spec30, 'pets', 200, [{ kind: 'dog', bark: { loud: 'very' } }]))).toMatchObject({
      pointer: '/0/bark/loud',
      rule: 'type',
      message: 'must be boolean',
    });
  });

  it('names the additional property', () => {
    expect(failureOf(check(spec30, 'strict', 200, { id: 1, extra: true }))).toEqual({
      pointer: '',
      rule: 'additionalProperties',
      message: "must NOT have additional property 'extra'",
      value: '{"id":1,"extra":true}',
    });
  });

  it('checks formats, ignoring unknown ones, and boolean exclusive bounds', () => {
    const good = {
      at: '2026-11-28T10:00:00Z',
      id: '0b9e4c1e-8a1f-4a8e-9a3b-1f2d3c4b5a69',
      email: 'ann@example.com',
      count: 5,
      big: 2 ** 40,
      ratio: 0.5,
      secret: 'x',
      blob: 'raw',
      color: 'anything',
      score: 10,
    };
    expect(check(spec30, 'formats', 200, good)).toEqual({ pass: true, actual: 'valid' });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ at: 'yesterday' }, '/at', 'format'],
      [{ id: 'not-a-uuid' }, '/id', 'format'],
      [{ email: 'nobody' }, '/email', 'format'],
      [{ count: 2 ** 31 }, '/count', 'format'],
      [{ score: 0 }, '/score', 'exclusiveMinimum'],
    ];
    for (const [body, pointer, rule] of cases)
      expect(failureOf(check(spec30, 'formats', 200, { ...good, ...body }))).toMatchObject({ pointer, rule });
  });

  it('runs patterns on RE2, and leaves alone one RE2 cannot run', () => {
    expect(check(spec30, 'patterns', 200, { code: 'ABC', odd: 'xyz' }).pass).toBe(true);
    expect(failureOf(check(spec30, 'patterns', 200, { code: 'abcd' }))).toMatchObject({
      pointer: '/code',
      rule: 'pattern',
    });
  });
});

describe('specSchemas: statuses and bodies', () => {
  it('fails an undocumented status', () => {
    const failure = failureOf(check(spec30, 'pets', 418, []));
    expect(failure).toEqual({ pointer: '', rule: 'status', message: 'status 418 is not documented', value: '418' });
    expect(formatSchemaFailure(failure)).toBe('/: status 418 is not documented (status), got 418');
  });

  it('picks the exact code, else its range, else default', () => {
    // 404 is a $ref to components/responses.
    expect(check(spec30, 'listItems', 404, { title: 'Not found' }).pass).toBe(true);
    expect(failureOf(check(spec30, 'listItems', 404, { message: 'x' })).rule).toBe('required');
    // 503 falls to 5XX (Problem), 409 to default (message required).
    expect(check(spec30, 'listItems', 503, { title: 'Down' }).pass).toBe(true);
    expect(failureOf(check(spec30, 'listItems', 503, { message: 'Down' })).message).toBe(
      "must have required property 'title'",
    );
    expect(check(spec30, 'listItems', 409, { message: 'Conflict' }).pass).toBe(true);
  });

  it('passes a documented response without content, whatever the body', () => {
    expect(check(spec30, 'deleteItem', 204, '')).toEqual({ pass: true, actual: 'valid' });
    expect(check(spec30, 'GET /items/{id}', 204, '')).toEqual({ pass: true, actual: 'valid' });
    expect(failureOf(check(spec30, 'deleteItem', 200, '')).rule).toBe('status');
  });

  it('fails a body that is not JSON, or empty, when there is a schema', () => {
    expect(failureOf(check(spec30, 'tree', 200, '<html>oops</html>'))).toEqual({
      pointer: '',
      rule: 'json',
      message: 'the body is not JSON',
      value: '"<html>oops</html>"',
    });
    expect(failureOf(check(spec30, 'tree', 200, ''))).toMatchObject({ rule: 'json', value: '""' });
  });

  it('says when the body was cut at the runner’s cap rather than blame the API', () => {
    const cut = `[${'{"name":"x"},'.repeat(6000)}`;
    expect(failureOf(check(spec30, 'tree', 200, cut))).toMatchObject({ rule: 'size' });
  });

  it('checks only JSON media types (wildcards included), and never a HEAD body', () => {
    expect(check(spec30, 'text', 200, 'not a number').pass).toBe(true);
    expect(check(spec30, 'any', 200, '{}').pass).toBe(true);
    expect(failureOf(check(spec30, 'any', 200, '[]')).rule).toBe('type');
    expect(check(spec30, 'headItems', 200, '').pass).toBe(true);
  });

  it('truncates long values to 100 characters', () => {
    const failure = failureOf(check(spec30, 'strict', 200, { note: 'x'.repeat(500), extra: 1 }));
    expect(failure.value).toHaveLength(SCHEMA_VALUE_MAX);
    expect(failure.value.endsWith('…')).toBe(true);
    expect(failure.value.startsWith('{"note":"xxx')).toBe(true);
  });

  it('answers null for an operation the spec does not have, or a document that is no OpenAPI 3', () => {
    expect(specSchemas(spec30).validator('nope')).toBeNull();
    expect(specSchemas(null).validator('x')).toBeNull();
    expect(specSchemas({ swagger: '2.0', paths: { '/a': { get: { operationId: 'a' } } } }).validator('a')).toBeNull();
  });
});

describe('specSchemas: OpenAPI 3.1', () => {
  const user = { id: '0b9e4c1e-8a1f-4a8e-9a3b-1f2d3c4b5a69', nickname: null, age: 3, tags: ['first', 'x'] };

  it('validates with JSON Schema 2020-12 and prefers the +json media type', () => {
    expect(check(spec31, 'getUser', 200, user)).toEqual({ pass: true, actual: 'valid' });
    expect(check(spec31, 'getUser', 201, { ...user, nickname: 'al', manager: user }).pass).toBe(true);
    expect(failureOf(check(spec31, 'getUser', 200, { ...user, nickname: 5 }))).toMatchObject({
      pointer: '/nickname',
      rule: 'type',
      message: 'must be string,null',
    });
    expect(failureOf(check(spec31, 'getUser', 200, { ...user, age: 0 })).rule).toBe('exclusiveMinimum');
    expect(failureOf(check(spec31, 'getUser', 200, { ...user, tags: ['second'] })).rule).toBe('const');
    expect(failureOf(check(spec31, 'getUser', 200, { ...user, id: 'x' })).rule).toBe('format');
  });

  it('names an unevaluated property', () => {
    expect(failureOf(check(spec31, 'getUser', 200, { ...user, extra: 1 }))).toMatchObject({
      pointer: '',
      rule: 'unevaluatedProperties',
      message: "must NOT have unevaluated property 'extra'",
    });
  });

  it('still reads nullable, which many 3.1 specs carry over', () => {
    const doc = {
      openapi: '3.1.0',
      paths: { '/a': { get: { operationId: 'a', responses: { '200': json({ nullable: true, enum: ['x'] }) } } } },
    };
    expect(check(doc, 'a', 200, 'null').pass).toBe(true);
    expect(check(doc, 'a', 200, '"x"').pass).toBe(true);
    expect(failureOf(check(doc, 'a', 200, '"y"')).rule).toBe('enum');
  });
});

describe('specSchemas: references that cannot be followed', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('never fetches an external $ref: that operation fails with rule schema, others still work', async () => {
    const server = await startServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ type: 'object' }));
    });
    close = server.close;
    const doc = {
      openapi: '3.0.3',
      paths: {
        '/remote': {
          get: {
            operationId: 'remote',
            responses: { '200': json({ $ref: `${server.origin}/schemas/thing.json` }) },
          },
        },
        '/local': { get: { operationId: 'local', responses: { '200': json({ $ref: '#/components/schemas/A' }) } } },
        '/node': { get: { operationId: 'node', responses: { '200': json({ $ref: '#/components/schemas/Node' }) } } },
        '/nodes': {
          get: {
            operationId: 'nodes',
            responses: { '200': json({ type: 'array', items: { $ref: '#/components/schemas/Node' } }) },
          },
        },
        '/missing': {
          get: { operationId: 'missing', responses: { '200': json({ $ref: '#/components/schemas/Nope' }) } },
        },
      },
      components: {
        schemas: {
          A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
          B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
          Node: {
            type: 'object',
            properties: {
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
              remote: { $ref: `${server.origin}/schemas/node.json` },
            },
          },
        },
      },
    };
    const schemas = specSchemas(doc);
    const remote = schemas.validator('remote')!(200, '{}');
    expect(failureOf(remote)).toEqual({
      pointer: '',
      rule: 'schema',
      message: `the spec's schema cannot be compiled: can't resolve reference ${server.origin}/schemas/thing.json`,
      value: '',
    });
    expect(remote.actual).toBe(
      `/: the spec's schema cannot be compiled: can't resolve reference ${server.origin}/schemas/thing.json (schema)`,
    );
    expect(failureOf(schemas.validator('missing')!(200, '{}')).rule).toBe('schema');
    expect(schemas.validator('local')!(200, '{"b":{"a":{}}}').pass).toBe(true);
    expect(failureOf(schemas.validator('local')!(200, '{"b":{"a":1}}')).pointer).toBe('/b/a');
    expect(failureOf(schemas.validator('remote')!(200, '{}')).rule).toBe('schema');
    // A failed compile leaves Ajv's half-built Node behind: the next schema using Node must fail the same way.
    expect(failureOf(schemas.validator('node')!(200, '{}')).message).toContain("can't resolve reference");
    expect(failureOf(schemas.validator('nodes')!(200, '[{"children":[]}]')).message).toContain(
      "the spec's schema cannot be compiled: can't resolve reference",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toEqual([]);
    expect(server.connections).toBe(0);
  });
});

describe('specSchemas: compiled once', () => {
  afterEach(() => vi.restoreAllMocks());

  it('compiles each response schema once, on first use, and hands back the same validator', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const schemas = specSchemas(spec30);
    expect(compile).not.toHaveBeenCalled();
    const validate = schemas.validator('listItems')!;
    expect(schemas.validator('listItems')).toBe(validate);
    expect(compile).not.toHaveBeenCalled();
    for (let i = 0; i < 5; i++) validate(200, JSON.stringify([item]));
    expect(compile).toHaveBeenCalledTimes(1);
    validate(503, '{"title":"x"}');
    validate(502, '{"title":"x"}');
    expect(compile).toHaveBeenCalledTimes(2);
    validate(418, '{}');
    expect(compile).toHaveBeenCalledTimes(3);
  });
});

describe('formatSchemaFailure and parseSchemaFailure', () => {
  it.each<SchemaFailure>([
    { pointer: '/items/0/price', rule: 'type', message: 'must be number', value: '"12"' },
    { pointer: '', rule: 'status', message: 'status 418 is not documented', value: '418' },
    { pointer: '', rule: 'schema', message: "the spec's schema cannot be compiled: can't resolve x", value: '' },
    { pointer: '/a b/100%/c: d', rule: 'required', message: "must have required property 'x (y)'", value: '{}' },
    { pointer: '/x', rule: 'pattern', message: 'must match pattern "^a (b)$"', value: '"c (type), got d"' },
    { pointer: '/~1a~0b', rule: 'enum', message: 'must be equal to one of the allowed values', value: 'null' },
  ])('round-trips $rule at "$pointer"', (failure) => {
    expect(parseSchemaFailure(formatSchemaFailure(failure))).toEqual(failure);
  });

  it('shows the root as / and reads nothing from other text', () => {
    expect(formatSchemaFailure({ pointer: '', rule: 'json', message: 'the body is not JSON', value: '""' })).toBe(
      '/: the body is not JSON (json), got ""',
    );
    expect(parseSchemaFailure('valid')).toBeNull();
    expect(parseSchemaFailure('')).toBeNull();
    expect(parseSchemaFailure('/x: cut in the mid')).toBeNull();
  });
});
