import { describe, expect, it } from 'vitest';
import type { HealthCheck } from '../../../src/contract/health.js';
import {
  assertionErrors,
  createBody,
  defaultAssertionsText,
  draftErrors,
  draftOf,
  fieldOfServerError,
  newDraft,
  parseHeaders,
  testBody,
  updateBody,
  withKind,
  type HealthCheckDraft,
} from '../../../src/app/health/health-check-form.js';
import { CHECK_KINDS } from '../../../src/domain/check-kinds.js';

const draft = (overrides: Partial<HealthCheckDraft>): HealthCheckDraft => ({
  ...newDraft(overrides.kind),
  name: 'Check',
  ...overrides,
});

const errorsOf = (overrides: Partial<HealthCheckDraft>) =>
  Object.fromEntries(Object.entries(draftErrors(draft(overrides))).filter(([, error]) => error !== null));

describe('request headers typed one per line', () => {
  it('reads Name: value lines, skipping blank ones and keeping colons in values', () => {
    expect(parseHeaders('Accept: application/json\n\n  X-Trace:  a: b  \n')).toEqual({
      headers: { Accept: 'application/json', 'X-Trace': 'a: b' },
      error: null,
    });
    expect(parseHeaders('')).toEqual({ headers: {}, error: null });
  });

  it('names the first line that is not a header, and refuses more than 30', () => {
    expect(parseHeaders('Accept: */*\nno colon').error).toMatch(/^Line 2: write a header as Name: value/);
    expect(parseHeaders('Bad Name: x').error).toMatch(/^Line 1: /);
    expect(parseHeaders(': x').error).toMatch(/^Line 1: /);
    const many = Array.from({ length: 31 }, (_, i) => `X-H${i}: ${i}`).join('\n');
    expect(parseHeaders(many).error).toBe('At most 30 headers');
  });
});

describe('the form per kind', () => {
  it('starts each kind with its default assertions', () => {
    for (const kind of CHECK_KINDS) expect(newDraft(kind).assertions).toBe(defaultAssertionsText(kind));
  });

  it('checks the target per kind, and only the fields the kind uses', () => {
    expect(errorsOf({ kind: 'http', endpoint: 'shop.test' })).toEqual({ endpoint: 'Must be an http or https URL' });
    expect(errorsOf({ kind: 'http', endpoint: '' })).toEqual({ endpoint: 'Endpoint is required' });
    expect(errorsOf({ kind: 'tcp', endpoint: '' })).toEqual({ endpoint: 'Host and port is required' });
    expect(Object.keys(errorsOf({ kind: 'tls', endpoint: 'mail.test' }))).toEqual(['endpoint']);
    expect(errorsOf({ kind: 'dns', endpoint: 'example.com' })).toEqual({});
    expect(errorsOf({ kind: 'domain', endpoint: 'localhost' })).toEqual({
      endpoint: 'Must be a domain name, e.g. example.com',
    });
    // A heartbeat has no target and no timeout; bad headers typed for http no longer count.
    expect(errorsOf({ kind: 'heartbeat', endpoint: 'x', timeout: '99', headers: 'nonsense' })).toEqual({});
    expect(errorsOf({ kind: 'heartbeat', grace: '-1', schedule: '* *', time_zone: 'Nowhere/Else' })).toEqual({
      grace: 'Grace must be a whole number from 0 to 86400',
      schedule: 'Must be a cron expression of 5 fields, e.g. 0 3 * * *',
      time_zone: 'Must be an IANA time zone, e.g. Europe/Berlin',
    });
    expect(errorsOf({ kind: 'heartbeat', frequency: '' })).toEqual({ frequency: 'Period is required' });
  });

  it('names each assertion line that does not parse or that the kind cannot observe', () => {
    expect(assertionErrors('http', 'status in 200..299\n\n# a comment\nlatency_ms < 800 warning')).toEqual([]);
    const errors = assertionErrors('dns', 'dns.rcode == NOERROR\nstatus ==\ncert.days_left >= 14');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^Line 2: /);
    expect(errors[1]).toMatch(/^Line 3: A dns check has no cert\.days_left/);
    expect(errorsOf({ kind: 'tcp', endpoint: 'db.test:5432', assertions: 'status == 200' }).assertions).toMatch(
      /^Line 1: A tcp check has no status/,
    );
    // A heartbeat's editor is hidden and what was typed is not sent: it cannot block Save.
    expect(errorsOf({ kind: 'heartbeat', assertions: 'status == 200' })).toEqual({});
    expect(createBody(draft({ kind: 'heartbeat', assertions: 'status == 200' }))).not.toHaveProperty('assertions_text');
    expect(updateBody(draft({ kind: 'heartbeat', assertions: 'status == 200' }))).not.toHaveProperty('assertions_text');
  });

  it('creates with only what the kind takes (no nulls), and the assertions as typed', () => {
    const common = {
      frequency: 15,
      timeout: 1,
      allowed_failures: 0,
      importance: 'warning',
      retries: 0,
      recover_after: 1,
    };
    expect(createBody(draft({ kind: 'tcp', endpoint: 'db.test:5432', send: 'PING\r\n', retry: true }))).toEqual({
      name: 'Check',
      kind: 'tcp',
      endpoint: 'db.test:5432',
      ...common,
      retries: 1,
      request: { method: 'GET', headers: {}, body: 'PING\r\n' },
      assertions_text: defaultAssertionsText('tcp'),
    });
    expect(createBody(draft({ kind: 'tls', endpoint: 'mail.test:25', starttls: 'smtp', runner: 'dc' }))).toMatchObject({
      kind: 'tls',
      runner: 'dc',
      starttls: 'smtp',
    });
    expect(createBody(draft({ kind: 'dns', endpoint: 'example.com', record: 'MX' }))).toMatchObject({ record: 'MX' });
    const heartbeat = createBody(
      draft({ kind: 'heartbeat', endpoint: 'left over', runner: 'dc', timeout: '99', grace: '30', assertions: '' }),
    );
    expect(heartbeat).toEqual({
      name: 'Check',
      kind: 'heartbeat',
      endpoint: '',
      ...common,
      grace: 30,
    });
  });

  it('sends an http request only when it is not a plain GET', () => {
    expect(createBody(draft({ endpoint: 'https://a.test' }))).not.toHaveProperty('request');
    expect(createBody(draft({ endpoint: 'https://a.test', method: 'HEAD' })).request).toEqual({
      method: 'HEAD',
      headers: {},
    });
    expect(createBody(draft({ endpoint: 'https://a.test', headers: 'Accept: */*', body: 'x' })).request).toEqual({
      method: 'GET',
      headers: { Accept: '*/*' },
      body: 'x',
    });
  });

  it("updates with the full body: the kinds' other fields null, empty assertions as the kind's defaults", () => {
    const body = updateBody(draft({ kind: 'dns', endpoint: 'example.com', runner: 'dc', assertions: '  ' }));
    expect(body).toEqual({
      name: 'Check',
      kind: 'dns',
      endpoint: 'example.com',
      runner: 'dc',
      frequency: 15,
      timeout: 1,
      allowed_failures: 0,
      importance: 'warning',
      disabled: false,
      paused: false,
      request: null,
      starttls: null,
      record: 'A',
      grace: null,
      schedule: null,
      time_zone: null,
      retries: 0,
      recover_after: 1,
      assertions_text: defaultAssertionsText('dns'),
    });
    expect(updateBody(draft({ kind: 'heartbeat', runner: 'dc', schedule: ' 0 3 * * * ' }))).toMatchObject({
      runner: null,
      grace: 60,
      schedule: '0 3 * * *',
      time_zone: null,
    });
  });

  it('tests an unnamed check as "Test"', () => {
    expect(testBody(draft({ name: ' ', endpoint: 'https://a.test' })).name).toBe('Test');
    expect(testBody(draft({ name: 'Shop', endpoint: 'https://a.test' })).name).toBe('Shop');
  });

  it("swaps untouched default assertions for the new kind's, and keeps typed ones", () => {
    expect(withKind(newDraft('http'), 'tls').assertions).toBe(defaultAssertionsText('tls'));
    expect(withKind(draft({ assertions: '' }), 'dns').assertions).toBe(defaultAssertionsText('dns'));
    expect(withKind(draft({ assertions: 'latency_ms < 100' }), 'tcp').assertions).toBe('latency_ms < 100');
  });

  it('reads a check cached before kinds existed as an http check with the defaults', () => {
    const old = {
      id: 'hc1',
      name: 'Old',
      endpoint: 'https://old.test',
      runner: null,
      frequency: 30,
      allowed_failures: 1,
      importance: 'error',
      disabled: false,
      paused: true,
      timeout: 2,
      service: { handle: 's' },
    } as unknown as HealthCheck;
    expect(draftOf(old)).toMatchObject({
      kind: 'http',
      method: 'GET',
      headers: '',
      retry: false,
      recover_after: '1',
      assertions: defaultAssertionsText('http'),
      paused: true,
    });
  });
});

describe('server field errors', () => {
  it('belong to the form field they name', () => {
    expect(fieldOfServerError('endpoint', 'http')).toBe('endpoint');
    expect(fieldOfServerError('assertions_text', 'http')).toBe('assertions');
    expect(fieldOfServerError('assertions.0.op', 'http')).toBe('assertions');
    expect(fieldOfServerError('request.headers.X-Bad', 'http')).toBe('headers');
    expect(fieldOfServerError('request.method', 'http')).toBe('method');
    expect(fieldOfServerError('request.body', 'http')).toBe('body');
    expect(fieldOfServerError('request', 'tcp')).toBe('send');
    expect(fieldOfServerError('time_zone', 'heartbeat')).toBe('time_zone');
    expect(fieldOfServerError('body', 'http')).toBeNull();
  });
});
