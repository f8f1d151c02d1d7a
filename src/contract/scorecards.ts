import { z } from 'zod';
import {
  definitionProblems,
  INCIDENT_SEVERITIES,
  LINK_KINDS,
  SCORECARD_EVALUATORS,
  SCORECARD_FIELDS,
} from '../domain/scorecards.js';
import { HANDLE_PATTERN, HANDLE_RULE } from '../domain/validators.js';
import { stage, visibility } from './catalogue.js';
import { line, pageQuery, text } from './common.js';

/** Scorecards (docs/decisions.md#slos-and-scorecards, issue 28): definitions, results, exemptions. */

export const SCORECARD_KEY_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
export const SCORECARD_KEY_MESSAGE = 'Lower-case letters and digits, joined by single hyphens or underscores';

const handle = line().min(1).max(64);
const key = line().min(1).max(40).regex(SCORECARD_KEY_PATTERN, SCORECARD_KEY_MESSAGE);
const name = line().trim().min(1).max(120);

const levelInput = z.strictObject({ key, name });

const none = z.strictObject({}).default({});
const ruleParams = {
  slo_met: none,
  no_failing_checks: z.strictObject({ minutes: z.number().int().min(1).max(10_080) }),
  cert_days_left: z.strictObject({ min: z.number().int().min(1).max(365) }),
  no_open_incident: z.strictObject({ min_severity: z.enum(INCIDENT_SEVERITIES) }),
  has_link: z.strictObject({ kind: z.enum(LINK_KINDS) }),
  has_published_spec: none,
  team_size: z.strictObject({ min: z.number().int().min(1).max(1000) }),
  has_channel: none,
  no_eol_dependency: none,
  live_has_check: none,
  field_set: z.strictObject({ field: z.enum(SCORECARD_FIELDS) }),
  no_api_drift: none,
} satisfies Record<(typeof SCORECARD_EVALUATORS)[number], z.ZodType>;

const ruleCommon = {
  key,
  name,
  level: key.describe('The key of the level the rule belongs to'),
  weight: z.number().int().min(1).max(100).default(1),
  remediation: text().trim().max(2000).nullable().optional().describe('What to do when the rule fails'),
};

const ruleOf = <E extends (typeof SCORECARD_EVALUATORS)[number]>(evaluator: E) =>
  z.strictObject({ ...ruleCommon, evaluator: z.literal(evaluator), params: ruleParams[evaluator] });

const ruleInput = z.discriminatedUnion('evaluator', [
  ruleOf('slo_met'),
  ruleOf('no_failing_checks'),
  ruleOf('cert_days_left'),
  ruleOf('no_open_incident'),
  ruleOf('has_link'),
  ruleOf('has_published_spec'),
  ruleOf('team_size'),
  ruleOf('has_channel'),
  ruleOf('no_eol_dependency'),
  ruleOf('live_has_check'),
  ruleOf('field_set'),
  ruleOf('no_api_drift'),
]);
export type ScorecardRuleInput = z.infer<typeof ruleInput>;

const appliesToInput = z.strictObject({
  stages: z.array(stage).max(3).optional(),
  teams: z.array(handle).max(500).optional().describe('Team handles'),
  visibility: z.array(visibility).max(3).optional(),
});

const definitionFields = {
  name,
  description: text().trim().max(2000).optional(),
  applies_to: appliesToInput.optional(),
  levels: z.array(levelInput).min(1).max(10).describe('Ordered, lowest first'),
  rules: z.array(ruleInput).max(50),
};

/** Keys unique and every rule on a level of the scorecard (checked again on a change, against the result). */
function soundDefinition(
  card: { levels?: Array<{ key: string; name: string }>; rules?: Array<{ key: string; level: string }> },
  ctx: z.core.$RefinementCtx,
) {
  if (!card.levels || !card.rules) return;
  for (const problem of definitionProblems({ levels: card.levels, rules: card.rules })) {
    ctx.addIssue({ code: 'custom', message: problem, path: ['rules'] });
  }
}

export const scorecardCreate = z
  .strictObject({
    handle: handle.regex(HANDLE_PATTERN, HANDLE_RULE),
    ...definitionFields,
  })
  .superRefine(soundDefinition);
export type ScorecardCreate = z.infer<typeof scorecardCreate>;

export const scorecardUpdate = z
  .strictObject({
    name: definitionFields.name.optional(),
    description: definitionFields.description,
    applies_to: definitionFields.applies_to,
    levels: definitionFields.levels.optional(),
    rules: definitionFields.rules.optional(),
  })
  .superRefine(soundDefinition);
export type ScorecardUpdate = z.infer<typeof scorecardUpdate>;

export const scorecardParams = z.strictObject({ scorecard: handle });
export const exemptionParams = z.strictObject({ scorecard: handle, id: line().min(1).max(64) });

const ruleAnswer = z.object({
  key: z.string(),
  name: z.string(),
  level: z.string(),
  weight: z.number().int(),
  evaluator: z.enum(SCORECARD_EVALUATORS),
  params: z.record(z.string(), z.unknown()),
  remediation: z.string().nullable(),
});

export const scorecard = z
  .object({
    handle: z.string(),
    name: z.string(),
    description: z.string(),
    applies_to: z.object({
      stages: z.array(stage).optional(),
      teams: z.array(z.string()).optional(),
      visibility: z.array(visibility).optional(),
    }),
    levels: z.array(z.object({ key: z.string(), name: z.string() })),
    rules: z.array(ruleAnswer),
    /** How many of the services it applies to are at each level (`level` null: none reached). */
    distribution: z.array(z.object({ level: z.string().nullable(), services: z.number().int() })),
    /** The same per owner team (one scorecard's answer only; the list leaves it out). */
    teams: z
      .array(
        z.object({
          team: z.object({ handle: z.string(), name: z.string() }),
          distribution: z.array(z.object({ level: z.string().nullable(), services: z.number().int() })),
        }),
      )
      .optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Scorecard' });
export type Scorecard = z.infer<typeof scorecard>;

const ruleState = z.enum(['pass', 'fail', 'unknown', 'exempt']);

export const ruleResult = z.object({
  key: z.string(),
  state: ruleState,
  value: z.string().describe('What the rule saw'),
  as_of: z.string().describe('When the data it read is from'),
  fails_at: z.string().optional().describe('For a passing rule on a date: when it will fail'),
});

const serviceRef = z.object({ handle: z.string(), name: z.string() });

export const scorecardResult = z
  .object({
    service: serviceRef,
    team: serviceRef,
    level: z.string().nullable().describe('The highest level reached; null when none is'),
    score: z.number().int().nullable().describe('Weighted percent of the rules passing, exempt rules left out'),
    rules: z.array(ruleResult),
    evaluated_at: z.string(),
  })
  .meta({ id: 'ScorecardResult' });
export type ScorecardResult = z.infer<typeof scorecardResult>;

export const scorecardResultsQuery = pageQuery.omit({ q: true }).extend({
  team: handle.optional(),
  level: line().max(40).optional().describe('A level key, or `none` for the services that reach no level'),
});

const exemptionAnswer = z
  .object({
    id: z.string(),
    service: z.string(),
    rule: z.string(),
    reason: z.string(),
    expires_at: z.string(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'ScorecardExemption' });
export type ScorecardExemption = z.infer<typeof exemptionAnswer>;
export { exemptionAnswer as scorecardExemption };

export const exemptionCreate = z.strictObject({
  service: handle,
  rule: key,
  reason: text().trim().min(1).max(2000),
  expires_at: z.iso.datetime({ offset: true }).describe('When the rule applies again'),
});

/** A service's results on one scorecard, with each rule's definition and exemption, for its Scorecards tab. */
export const serviceScorecard = z
  .object({
    scorecard: z.object({
      handle: z.string(),
      name: z.string(),
      levels: z.array(z.object({ key: z.string(), name: z.string() })),
    }),
    level: z.string().nullable(),
    score: z.number().int().nullable(),
    rules: z.array(
      ruleResult.extend({
        name: z.string(),
        level: z.string(),
        remediation: z.string().nullable(),
        exemption: exemptionAnswer.nullable(),
      }),
    ),
    evaluated_at: z.string(),
  })
  .meta({ id: 'ServiceScorecard' });
export type ServiceScorecard = z.infer<typeof serviceScorecard>;

/** The history's range, whole UTC days; at most 90 of them. */
export const SCORECARD_HISTORY_MAX_DAYS = 90;
export const scorecardHistoryQuery = z.strictObject({
  from: z.iso.date().optional().describe('The first day (UTC); default 29 days before `to`'),
  to: z.iso.date().optional().describe('The last day (UTC); default today'),
});

const mover = z.object({
  service: serviceRef,
  from: z.string().nullable(),
  to: z.string().nullable(),
});

export const scorecardHistory = z
  .object({
    from: z.string(),
    to: z.string(),
    /** Each day's count of services at each level (`level` null: none reached), at the end of the day. */
    days: z.array(
      z.object({
        date: z.string(),
        levels: z.array(z.object({ level: z.string().nullable(), services: z.number().int() })),
      }),
    ),
    /** Services whose level rose, and fell, from the end of `from` to the end of `to`, most moved first. */
    improved: z.array(mover),
    regressed: z.array(mover),
  })
  .meta({ id: 'ScorecardHistory' });
export type ScorecardHistory = z.infer<typeof scorecardHistory>;
