import { z } from 'zod';
import { serviceParams } from './catalogue.js';
import { line } from './common.js';
import { assertion } from './health.js';

/** Specs that check themselves (docs/decisions.md#spec-checks, issue 30). */

export const specProbesQuery = z.strictObject({
  server: line()
    .max(2000)
    .regex(/^https?:\/\//, 'Must be an http or https URL')
    .optional()
    .describe('The server to probe, when the spec’s are relative or another is wanted'),
});

export const specProbe = z
  .object({
    operation_id: z.string(),
    method: z.string(),
    path: z.string(),
    summary: z.string().nullable(),
    url: z.string().nullable(),
    success_codes: z.array(z.string()),
    content_type: z.string().nullable(),
    needs_auth: z.boolean(),
    headers: z.record(z.string(), z.string()).optional(),
    assertions: z.array(assertion),
    assertions_text: z.string(),
    reason_skipped: z.string().optional(),
    checks: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .describe('The service’s checks made from this operation already'),
  })
  .meta({ id: 'SpecProbe' });
export type SpecProbe = z.infer<typeof specProbe>;

export const specProbesAnswer = z
  .object({
    page: z.string(),
    title: z.string().nullable(),
    version: z.string().nullable().describe('The published spec’s info.version'),
    servers: z.array(z.string()).describe('The spec’s server URLs, variables filled from their defaults'),
    probes: z.array(specProbe).describe('Every operation; those that cannot be probed safely say why'),
    flagged: z
      .array(z.object({ id: z.string(), name: z.string(), operation_id: z.string() }))
      .describe('Checks made from an operation this version no longer has'),
  })
  .meta({ id: 'SpecProbes' });
export type SpecProbesAnswer = z.infer<typeof specProbesAnswer>;

export const specPageParams = serviceParams.extend({ page: line().min(1).max(64) });

export const driftExample = z
  .object({
    status: z.number().int().nullable(),
    pointer: z.string().describe('JSON pointer into the body; empty for the whole body or the status'),
    message: z.string(),
    value: z.string().describe('The value found, as JSON, truncated'),
  })
  .meta({ id: 'DriftExample' });
export type DriftExample = z.infer<typeof driftExample>;

export const apiDrift = z
  .object({
    operation_id: z.string(),
    method: z.string(),
    path: z.string(),
    page: z.string().describe('The spec page’s handle'),
    spec_version: z.string().nullable(),
    check: z.object({ id: z.string(), name: z.string() }).nullable(),
    since: z.string(),
    last_seen: z.string(),
    example: driftExample,
  })
  .meta({ id: 'ApiDrift' });
export type ApiDrift = z.infer<typeof apiDrift>;
