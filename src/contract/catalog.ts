import { z } from 'zod';
import { PLAN_ACTIONS, SOURCE_MODES } from '../domain/catalog-plan.js';
import { profileRef } from './catalogue.js';
import { httpUrl, line, pageQuery, text } from './common.js';

/** The catalogue as code (docs/decisions.md#catalogue-as-code, issue 29): plans, sources and what they manage. */

/** A plan's files: up to 20,000 of them, 20 MB in all (the route's body limit). */
export const CATALOG_PLAN_BODY_LIMIT = 20 * 1024 * 1024;

export const descriptorFile = z.strictObject({
  path: line()
    .trim()
    .min(1)
    .max(500)
    .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
      message: 'A relative path inside the source, without ".."',
    }),
  content: text().max(5_000_000),
});

export const catalogExport = z.object({ files: z.array(descriptorFile) }).meta({ id: 'CatalogExport' });

export const planCreate = z.strictObject({
  source: line().min(1).max(64).optional().describe("A source's id or name: plan its new files against it"),
  files: z.array(descriptorFile).min(1).max(20_000),
});

const problem = z.object({ path: z.string(), line: z.number().int(), message: z.string() });

export const planChange = z
  .object({
    kind: z.string(),
    handle: z.string(),
    action: z.enum(PLAN_ACTIONS),
    diff: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })).optional(),
    errors: z.array(problem).optional(),
    message: z.string().optional(),
    unresolved: z.array(z.string()).optional(),
    path: z.string().optional(),
    line: z.number().int().optional(),
  })
  .meta({ id: 'CatalogPlanChange' });

const counts = z.record(z.enum(PLAN_ACTIONS), z.number().int());

export const catalogPlan = z
  .object({
    id: z.string(),
    /** The digest of what the plan found: applying answers 409 when the catalogue no longer gives it. */
    base_version: z.string(),
    source: z.object({ id: z.string(), name: z.string() }).nullable(),
    expires_at: z.string(),
    changes: z.array(planChange),
    counts,
    applied_at: z.string().optional(),
  })
  .meta({ id: 'CatalogPlan' });
export type CatalogPlanAnswer = z.infer<typeof catalogPlan>;

export const planParams = z.strictObject({ plan: line().min(1).max(64) });

const sourceName = line().trim().min(1).max(64);
const mode = z.enum(SOURCE_MODES);
const interval = z.number().int().min(5).max(10_080);

export const catalogSource = z
  .object({
    id: z.string(),
    name: z.string(),
    url: z.string().nullable(),
    /** `set` when the source has a token (sent as `Authorization: Bearer`); the token itself is never answered. */
    token: z.literal('set').optional(),
    mode,
    interval_minutes: z.number().int(),
    last_sync: z
      .object({
        at: z.string(),
        status: z.enum(['ok', 'unchanged', 'failed']),
        counts: counts.nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    /** How many entities it describes, by state. */
    entities: z.object({ synced: z.number(), errored: z.number(), orphaned: z.number(), conflict: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'CatalogSource' });
export type CatalogSource = z.infer<typeof catalogSource>;

/** Write only: a credential for the URL's host. A URL holding one itself is refused (400). */
const sourceToken = line()
  .min(1)
  .max(4000)
  .describe("Sent as `Authorization: Bearer {token}` to the URL's host; stored sealed and never answered");

export const sourceCreate = z.strictObject({
  name: sourceName,
  url: httpUrl().max(2000).optional().describe('Synced on a schedule; without it, the source is what is uploaded'),
  token: sourceToken.optional(),
  mode: mode.default('authoritative'),
  interval_minutes: interval.default(60),
});
export const sourceUpdate = z.strictObject({
  name: sourceName.optional(),
  url: httpUrl().max(2000).nullable().optional(),
  /** null removes it. */
  token: sourceToken.nullable().optional(),
  mode: mode.optional(),
  interval_minutes: interval.optional(),
});
export const sourceParams = z.strictObject({ source: line().min(1).max(64) });

export const ENTITY_STATES = ['synced', 'errored', 'orphaned', 'conflict'] as const;

export const catalogEntity = z
  .object({
    source: z.object({ id: z.string(), name: z.string() }),
    kind: z.enum(['service', 'team']),
    handle: z.string(),
    state: z.enum(ENTITY_STATES),
    reason: z.string().nullable(),
    since: z.string(),
    synced_at: z.string(),
    path: z.string(),
    line: z.number().int(),
    /** The service or team, when there is one. */
    entity: profileRef.nullable(),
    /** An orphan's removal. */
    removed_at: z.string().nullable(),
  })
  .meta({ id: 'CatalogEntity' });
export type CatalogEntity = z.infer<typeof catalogEntity>;

export const catalogEntitiesQuery = pageQuery.extend({
  state: z.enum(['errored', 'orphaned', 'conflict']).optional().describe('Without it: every state but synced'),
});

export { managedBy, type ManagedBy } from './catalogue.js';
