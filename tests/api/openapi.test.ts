import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOperations } from '../../src/contract/operations/index.js';
import { json, startTestServer, type TestServer } from '../support/server.js';

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

let server: TestServer;
let document: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer();
  const response = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = json<OpenApiDocument>(response);
});
afterAll(() => server.close());

const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );

describe('the OpenAPI document', () => {
  it('is served, and the committed openapi.json is up to date', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/session', '/api/token', '/api/search/users', '/api/users/{username}']),
    );
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(committed, 'openapi.json is stale: run `npm run openapi`').toEqual(document);
  });

  it('is a valid OpenAPI document', async () => {
    // A deep copy: validate() dereferences the document it is given in place.
    const result = await validate(JSON.parse(JSON.stringify(document)));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('shows every declared operation that is not hidden, once', () => {
    const served = operationsOf(document).map(({ operation }) => operation.operationId);
    const declared = allOperations.filter((operation) => !operation.hidden).map((operation) => operation.id);
    expect([...served].sort()).toEqual([...declared].sort());
  });

  it('gives every operation an id, a summary, who may call it and, unless public, its 4xx answers', () => {
    const publicIds = new Set(allOperations.filter((op) => op.access === 'public').map((op) => op.id));
    for (const { name, operation } of operationsOf(document)) {
      expect(operation.operationId, name).toBeTruthy();
      expect(operation.summary, name).toBeTruthy();
      expect(operation.security, name).toBeInstanceOf(Array);
      if (publicIds.has(operation.operationId!)) {
        expect(operation.security, name).toEqual([]);
      } else {
        expect(operation.security, name).not.toEqual([]);
        const clientErrors = Object.keys(operation.responses).filter((status) => status.startsWith('4'));
        expect(clientErrors, name).not.toEqual([]);
      }
    }
  });
});
