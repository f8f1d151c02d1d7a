import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/pagination.js';

/** DESIGN.md section 4: every error body. */
export const errorBody = z
  .object({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

export const pageQuery = z.strictObject({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  q: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const messageBody = z.object({ message: z.string() });

/** Standard error responses a route may give, for the OpenAPI document. */
export function errorResponses<const C extends readonly number[]>(...codes: C) {
  return Object.fromEntries(codes.map((code) => [code, errorBody])) as Record<C[number], typeof errorBody>;
}
