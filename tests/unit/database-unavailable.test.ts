import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/server/db/connect.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['57P01 admin shutdown (pg_terminate_backend)', withCode('57P01')],
    ['57P02 crash shutdown', withCode('57P02')],
    ['57P03 cannot connect now (starting up)', withCode('57P03')],
    ['08006 connection failure', withCode('08006')],
    ['08P01 protocol violation', withCode('08P01')],
    ['53300 too many connections', withCode('53300')],
    ['ECONNREFUSED', withCode('ECONNREFUSED')],
    ['ECONNRESET', withCode('ECONNRESET')],
    ['SQLITE_BUSY', withCode('SQLITE_BUSY')],
    ['SQLITE_BUSY_SNAPSHOT', withCode('SQLITE_BUSY_SNAPSHOT')],
    ['a broken connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a client no longer queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['a wrapped cause', new Error('query failed', { cause: withCode('57P01') })],
    ['a connect tried on several addresses', new AggregateError([withCode('ECONNREFUSED')], 'connect failed')],
  ])('%s: yes', (_name, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a unique violation', withCode('23505')],
    ['a serialization failure (retried by the code that needs it)', withCode('40001')],
    ['a syntax error', withCode('42601')],
    ['SQLITE_CONSTRAINT', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('boom')],
    ['not an error', 'Connection terminated'],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});
