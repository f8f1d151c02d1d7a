import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/pagination.js';

/** docs/api.md#conventions: every error body. */
export const errorBody = z
  .object({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

/**
 * Every string the API accepts is built from `line()` or `text()` (tests/unit/contract/strings.test.ts walks every
 * operation and fails on a bare `z.string()`), so control characters are refused in the contract, once, with a
 * 400 naming the field: PostgreSQL cannot store NUL at all, and the other C0/C1 controls make no sense in
 * stored text. The choice between the two is per field, which only the contract knows.
 */
// C0 controls, DEL and C1 controls; multi-line text keeps tab, line feed and carriage return.
/* eslint-disable no-control-regex */
export const singleLine = z.regex(/^[^\x00-\x1f\x7f-\x9f]*$/, 'Must be one line without control characters');
export const multiLine = z.regex(
  /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$/,
  'Must not contain control characters other than tabs and line breaks',
);
/* eslint-enable no-control-regex */

/** A one-line string: names, handles, emails, URLs, keys, passwords, query strings. */
export const line = () => z.string().check(singleLine);
/** Multi-line text: descriptions, bios, messages, page content (tabs and line breaks allowed). */
export const text = () => z.string().check(multiLine);
/** An http(s) URL on one line (checked first: zod's URL check deletes tabs and line breaks before parsing). */
export const httpUrl = () => line().check(z.url({ protocol: /^https?$/ }));

export const pageQuery = z.strictObject({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  q: line().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const messageBody = z.object({ message: z.string() });

/** Standard error responses a route may give, for the OpenAPI document. */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((code) => [code, errorBody])) as Record<C[number], typeof errorBody>;
}

/**
 * docs/api.md#conventions: the header of writes that keep their first answer (operations marked `replayable`). Loose:
 * the other headers pass through untouched.
 */
export const replayHeaders = z.looseObject({
  'idempotency-key': line()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Replay key (IETF Idempotency-Key draft): the first answer for this caller and key is kept 24 hours and ' +
        'answered again to a replay, which changes nothing; the same key with another request is 422, while ' +
        'the first is still running 409',
    ),
});
