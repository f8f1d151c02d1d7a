import { z } from 'zod';
import { isSloTarget, SLO_WINDOW_DAYS } from '../domain/slo.js';

/** SLOs per service (docs/decisions.md#slos-and-scorecards, issue 28). */

const windowDays = z.literal(SLO_WINDOW_DAYS).describe('The rolling window, in days');

export const sloInput = z.strictObject({
  target: z
    .number()
    .gt(0)
    .lt(100)
    .refine(isSloTarget, 'A percentage above 0 and below 100, with at most three decimals')
    .describe('Percent, e.g. 99.9'),
  window_days: windowDays,
});

export const slo = z
  .object({ target: z.number(), window_days: windowDays, updated_at: z.string() })
  .meta({ id: 'Slo' });
export type SloAnswer = z.infer<typeof slo>;

const rate = z.number().nullable();

export const sloStatusAnswer = z
  .object({
    target: z.number(),
    window_days: windowDays,
    availability: z
      .number()
      .nullable()
      .describe('Percent over the window outside declared maintenance; null before any'),
    budget: z.object({
      total_seconds: z.number().int().describe('The downtime the target allows over the window'),
      left_seconds: z.number().int().describe('Negative once overspent'),
      left_ratio: z.number(),
    }),
    burn_rates: z.object({ '1h': rate, '6h': rate, '3d': rate }),
    exhausted_at: z.string().nullable().describe('When the budget runs out at the last hour’s error ratio'),
    maintenance_seconds_excluded: z.number().int(),
    /** The burn-rate alerts firing now (the workbook's fast and slow pairs). */
    alerts: z.object({ fast: z.boolean(), slow: z.boolean() }),
    as_of: z.string(),
  })
  .meta({ id: 'SloStatus' });
export type SloStatusAnswer = z.infer<typeof sloStatusAnswer>;
