import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../contract/common.js';
import { isDatabaseUnavailable } from './db/connect.js';

/** An error with an honest status code and a body the client may read (docs/api.md#conventions). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
    /**
     * More of the body, beside the message (a 412 answers the current version: docs/decisions.md#api-conventions and
     * #pages).
     */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not Found') => new HttpError(404, message);
export const conflict = (message: string, errors?: Record<string, string[]>) => new HttpError(409, message, errors);

/** A stale version: 412 with what the server holds now, so the client can settle the conflict. */
export const preconditionFailed = (message: string, current: Record<string, unknown>) =>
  new HttpError(412, message, undefined, undefined, current);

/** Seconds a client is asked to wait while the database is unreachable. */
const RETRY_AFTER_SECONDS = '5';
export const serviceUnavailable = (message = 'Service Unavailable: the database is not reachable, try again shortly') =>
  new HttpError(503, message, undefined, { 'retry-after': RETRY_AFTER_SECONDS });

/** One field error, in the `errors` shape. */
export function fieldError(field: string, message: string): Record<string, string[]> {
  return { [field]: [message] };
}

/** The shape fastify-type-provider-zod gives each issue: a JSON pointer and the zod issue's other fields. */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[] };
}

/** Turns request-validation issues into `{ field: [message] }`, naming unknown fields. */
function validationErrors(issues: ValidationIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field || 'body'] ??= []).push(message);
  for (const issue of issues) {
    const base = issue.instancePath.split('/').filter(Boolean).join('.');
    if (issue.keyword === 'unrecognized_keys' && issue.params.keys) {
      for (const key of issue.params.keys) add(base ? `${base}.${key}` : key, 'Unknown field');
    } else {
      add(base, issue.message);
    }
  }
  return errors;
}

/** The body an HttpError answers with. */
export function errorBodyOf(error: HttpError): ErrorBody {
  return { ...error.details, message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
}

export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  let status: number;
  let body: ErrorBody;
  if (error instanceof HttpError) {
    status = error.statusCode;
    body = errorBodyOf(error);
    if (error.headers) void reply.headers(error.headers);
  } else if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = validationErrors(error.validation as unknown as ValidationIssue[]);
    const [field, [first] = []] = Object.entries(errors)[0] ?? ['body', ['is invalid']];
    status = 400;
    body = { message: `Invalid ${error.validationContext ?? 'request'}: ${field}: ${first}`, errors };
  } else if (isDatabaseUnavailable(error)) {
    // The database went away (restart, failover, killed connections) or SQLite stayed locked: worth a retry.
    request.log.warn({ err: error }, 'database unavailable');
    status = 503;
    body = { message: serviceUnavailable().message };
    void reply.header('retry-after', RETRY_AFTER_SECONDS);
  } else if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    status = 500;
    body = { message: 'Internal Server Error' };
  } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    status = error.statusCode;
    body = {
      message:
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? `Malformed JSON body: ${error.message}`
          : error.message,
    };
  } else {
    request.log.error({ err: error }, 'request failed');
    status = 500;
    body = { message: 'Internal Server Error' };
  }
  void reply.code(status).send(body);
}
