/**
 * A scorecard's definition as its form holds it (docs/decisions.md#slos-and-scorecards): what is typed, how it becomes
 * the body of a save, what is wrong with it before it is sent, and where a refused save's errors go. No React here.
 */
import {
  SCORECARD_KEY_MESSAGE,
  SCORECARD_KEY_PATTERN,
  type Scorecard,
  type ScorecardCreate,
  type ScorecardRuleInput,
} from '../../contract/scorecards.js';
import type { Stage, Visibility } from '../../domain/catalogue.js';
import {
  definitionProblems,
  INCIDENT_SEVERITIES,
  LINK_KINDS,
  SCORECARD_FIELDS,
  type ScorecardEvaluator,
} from '../../domain/scorecards.js';
import { messages, slugify } from '../../domain/validators.js';
import { ApiError } from '../api/client.js';
import { editorHandleError } from '../components/editor-handle.js';

/** The contract's limits (contract/scorecards.ts), as the form keeps to them. */
export const MAX_LEVELS = 10;
export const MAX_RULES = 50;

/** What each evaluator checks, as the rule's evaluator select names it. */
export const EVALUATOR_LABELS: Record<ScorecardEvaluator, string> = {
  slo_met: 'SLO met over its window',
  no_failing_checks: 'No failing check for some minutes',
  cert_days_left: 'Certificate has enough days left',
  no_open_incident: 'No open incident at or above a severity',
  has_link: 'Has a link of a kind',
  has_published_spec: 'Has a published OpenAPI spec that parses',
  team_size: 'Owner team has enough members',
  has_channel: 'Has a Slack channel',
  no_eol_dependency: 'No dependency at End of Life',
  live_has_check: 'A live service has a check',
  field_set: 'A field is set',
  no_api_drift: 'No drift from its published API spec',
};

/** An evaluator's one parameter: a whole number or a choice, with its label, bounds and default. */
export type ParamSpec =
  | { name: string; label: string; kind: 'number'; min: number; max: number; default: number; hint: string }
  | { name: string; label: string; kind: 'choice'; options: readonly string[]; default: string };

export const EVALUATOR_PARAM: Partial<Record<ScorecardEvaluator, ParamSpec>> = {
  no_failing_checks: {
    name: 'minutes',
    label: 'Minutes',
    kind: 'number',
    min: 1,
    max: 10_080,
    default: 60,
    hint: 'How long no check may have failed (1-10080).',
  },
  cert_days_left: {
    name: 'min',
    label: 'Days left at least',
    kind: 'number',
    min: 1,
    max: 365,
    default: 14,
    hint: 'From the TLS checks (1-365).',
  },
  no_open_incident: {
    name: 'min_severity',
    label: 'From severity',
    kind: 'choice',
    options: INCIDENT_SEVERITIES,
    default: 'error',
  },
  has_link: { name: 'kind', label: 'Link kind', kind: 'choice', options: LINK_KINDS, default: 'runbook' },
  team_size: {
    name: 'min',
    label: 'Members at least',
    kind: 'number',
    min: 1,
    max: 1000,
    default: 2,
    hint: 'People in the owner team (1-1000).',
  },
  field_set: { name: 'field', label: 'Field', kind: 'choice', options: SCORECARD_FIELDS, default: 'description' },
};

export interface DraftLevel {
  /** Stable across moves and key edits: rules name their level by it. */
  id: string;
  key: string;
  name: string;
  /** Saved levels keep their key (history and results name levels by it); a new one follows its name. */
  saved: boolean;
  keyEdited: boolean;
}

export interface DraftRule {
  id: string;
  key: string;
  name: string;
  saved: boolean;
  keyEdited: boolean;
  /** The `id` of its level in the draft. */
  level: string;
  weight: string;
  evaluator: ScorecardEvaluator;
  /** The parameter as typed or picked ('' when the evaluator has none). */
  param: string;
  remediation: string;
}

export interface ScorecardDraft {
  name: string;
  description: string;
  stages: Stage[];
  visibility: Visibility[];
  /** Team handles. */
  teams: string[];
  levels: DraftLevel[];
  rules: DraftRule[];
}

let lastId = 0;
const newId = (prefix: string) => `${prefix}${++lastId}`;

/** A key from a name: its slug, at most 40 characters (empty when the name has no letters or digits). */
export const keyOf = (name: string) => slugify(name).slice(0, 40).replace(/-+$/, '');

export function newLevel(name = ''): DraftLevel {
  return { id: newId('l'), key: keyOf(name), name, saved: false, keyEdited: false };
}

export function newRule(level: string, evaluator: ScorecardEvaluator = 'field_set'): DraftRule {
  const spec = EVALUATOR_PARAM[evaluator];
  return {
    id: newId('r'),
    key: '',
    name: '',
    saved: false,
    keyEdited: false,
    level,
    weight: '1',
    evaluator,
    param: spec ? String(spec.default) : '',
    remediation: '',
  };
}

/** A rule given another evaluator: its parameter starts from the new one's default. */
export function withEvaluator(rule: DraftRule, evaluator: ScorecardEvaluator): DraftRule {
  const spec = EVALUATOR_PARAM[evaluator];
  return { ...rule, evaluator, param: spec ? String(spec.default) : '' };
}

/** A new scorecard starts with the three levels most scorecards use, and no rules. */
export function draftOf(card: Scorecard | null): ScorecardDraft {
  if (!card) {
    return {
      name: '',
      description: '',
      stages: [],
      visibility: [],
      teams: [],
      levels: [newLevel('Bronze'), newLevel('Silver'), newLevel('Gold')],
      rules: [],
    };
  }
  const levels = card.levels.map((level) => ({ ...newLevel(level.name), key: level.key, saved: true }));
  const levelId = new Map(levels.map((level) => [level.key, level.id]));
  return {
    name: card.name,
    description: card.description,
    stages: [...(card.applies_to.stages ?? [])],
    visibility: [...(card.applies_to.visibility ?? [])],
    teams: [...(card.applies_to.teams ?? [])],
    levels,
    rules: card.rules.map((rule) => {
      const spec = EVALUATOR_PARAM[rule.evaluator];
      return {
        id: newId('r'),
        key: rule.key,
        name: rule.name,
        saved: true,
        keyEdited: true,
        level: levelId.get(rule.level) ?? levels[0]?.id ?? '',
        weight: String(rule.weight),
        evaluator: rule.evaluator,
        param: spec ? String(rule.params[spec.name] ?? spec.default) : '',
        remediation: rule.remediation ?? '',
      };
    }),
  };
}

/** The body of a save (create adds the handle): the whole definition, as the form shows it. */
export function bodyOf(draft: ScorecardDraft): Omit<ScorecardCreate, 'handle'> {
  const levelKey = new Map(draft.levels.map((level) => [level.id, level.key]));
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    applies_to: {
      ...(draft.stages.length > 0 ? { stages: draft.stages } : {}),
      ...(draft.visibility.length > 0 ? { visibility: draft.visibility } : {}),
      ...(draft.teams.length > 0 ? { teams: draft.teams } : {}),
    },
    levels: draft.levels.map((level) => ({ key: level.key, name: level.name.trim() })),
    rules: draft.rules.map((rule) => {
      const spec = EVALUATOR_PARAM[rule.evaluator];
      const params = spec ? { [spec.name]: spec.kind === 'number' ? Number(rule.param) : rule.param } : {};
      return {
        key: rule.key,
        name: rule.name.trim(),
        level: levelKey.get(rule.level) ?? '',
        weight: Number(rule.weight),
        evaluator: rule.evaluator,
        params,
        remediation: rule.remediation.trim() || null,
      } as ScorecardRuleInput;
    }),
  };
}

export { HANDLE_RESERVED, HANDLE_RULE } from '../components/editor-handle.js';
export const KEY_RULE = SCORECARD_KEY_MESSAGE;
export const KEY_TAKEN = 'Another one here has this key';
export const WEIGHT_RULE = 'A whole number from 1 to 100';
export const NO_LEVELS = 'Add at least one level';
const tooLong = (max: number) => `At most ${max} characters`;
const wholeIn = (value: string, min: number, max: number) => {
  const n = Number(value);
  return value.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
};

/** What is wrong with a level's or a rule's row, by its field. */
export type RowErrors = Partial<Record<'name' | 'key' | 'weight' | 'param' | 'level' | 'remediation', string>>;

export interface DraftErrors {
  name: string | null;
  handle: string | null;
  description: string | null;
  levels: string | null;
  /** By the row's `id`. */
  levelRows: Record<string, RowErrors>;
  ruleRows: Record<string, RowErrors>;
}

function keyError(key: string, taken: boolean): string | undefined {
  if (key === '') return messages.required;
  if (key.length > 40) return tooLong(40);
  if (!SCORECARD_KEY_PATTERN.test(key)) return KEY_RULE;
  return taken ? KEY_TAKEN : undefined;
}

/** Keys used more than once in `rows`. */
function repeatedKeys(rows: ReadonlyArray<{ key: string }>): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { key } of rows) (seen.has(key) ? twice : seen).add(key);
  return twice;
}

/** What is wrong with the draft before it is sent (the server checks again, with definitionProblems too). */
export function draftErrors(draft: ScorecardDraft, { handle, creating }: { handle: string; creating: boolean }) {
  const name = draft.name.trim();
  const errors: DraftErrors = {
    name: name === '' ? messages.required : name.length > 120 ? tooLong(120) : null,
    handle: editorHandleError(handle, { creating }),
    description: draft.description.trim().length > 2000 ? tooLong(2000) : null,
    levels: draft.levels.length === 0 ? NO_LEVELS : null,
    levelRows: {},
    ruleRows: {},
  };
  const levelTwice = repeatedKeys(draft.levels);
  for (const level of draft.levels) {
    const row: RowErrors = {};
    const levelName = level.name.trim();
    if (levelName === '') row.name = messages.required;
    else if (levelName.length > 120) row.name = tooLong(120);
    const key = keyError(level.key, levelTwice.has(level.key));
    if (key) row.key = key;
    if (Object.keys(row).length > 0) errors.levelRows[level.id] = row;
  }
  const ruleTwice = repeatedKeys(draft.rules);
  const levelIds = new Set(draft.levels.map((level) => level.id));
  for (const rule of draft.rules) {
    const row: RowErrors = {};
    const ruleName = rule.name.trim();
    if (ruleName === '') row.name = messages.required;
    else if (ruleName.length > 120) row.name = tooLong(120);
    const key = keyError(rule.key, ruleTwice.has(rule.key));
    if (key) row.key = key;
    if (!levelIds.has(rule.level)) row.level = messages.required;
    if (!wholeIn(rule.weight, 1, 100)) row.weight = WEIGHT_RULE;
    const spec = EVALUATOR_PARAM[rule.evaluator];
    if (spec?.kind === 'number' && !wholeIn(rule.param, spec.min, spec.max)) {
      row.param = `A whole number from ${spec.min} to ${spec.max}`;
    }
    if (rule.remediation.trim().length > 2000) row.remediation = tooLong(2000);
    if (Object.keys(row).length > 0) errors.ruleRows[rule.id] = row;
  }
  return errors;
}

/** Whether the draft may be sent: no error anywhere, and the definition sound as the server will judge it. */
export function draftValid(draft: ScorecardDraft, errors: DraftErrors): boolean {
  const { levelRows, ruleRows, ...fields } = errors;
  if (Object.values(fields).some(Boolean)) return false;
  if (Object.keys(levelRows).length + Object.keys(ruleRows).length > 0) return false;
  const body = bodyOf(draft);
  return definitionProblems({ levels: body.levels, rules: body.rules }).length === 0;
}

// ---- a refused save, placed by what it names ----

export const HANDLE_IN_USE = 'Another scorecard has this handle';
export const SAVE_FAILED = 'There was an error while saving your scorecard';
export const FIX_FIELDS = 'The scorecard was not saved: please check the fields marked below.';

export interface PlacedErrors {
  fields: Partial<Record<'name' | 'handle' | 'description' | 'applies_to', string>>;
  levelRows: Record<string, RowErrors>;
  ruleRows: Record<string, RowErrors>;
  form: string[];
}

const ROW_FIELDS: Record<string, keyof RowErrors> = {
  name: 'name',
  key: 'key',
  weight: 'weight',
  level: 'level',
  params: 'param',
  remediation: 'remediation',
};

/** Places a refused save's errors on the rows that were sent (by their ids, so later moves keep them). */
export function placeErrors(error: unknown, sent: ScorecardDraft): PlacedErrors {
  const placed: PlacedErrors = { fields: {}, levelRows: {}, ruleRows: {}, form: [] };
  if (!(error instanceof ApiError)) return { ...placed, form: [SAVE_FAILED] };
  if (error.status === 409) return { ...placed, fields: { handle: HANDLE_IN_USE } };
  const named = Object.entries(error.body.errors ?? {}).flatMap(([path, [first]]) => (first ? [[path, first]] : []));
  if (error.status !== 400 || named.length === 0) return { ...placed, form: [error.message || SAVE_FAILED] };
  for (const [path, message] of named as Array<[string, string]>) {
    const [, list, index, field] = /^(levels|rules)\.(\d+)\.(\w+)/.exec(path) ?? [];
    const rows = list === 'levels' ? sent.levels : list === 'rules' ? sent.rules : undefined;
    const row = rows?.[Number(index)];
    const rowField = field ? ROW_FIELDS[field] : undefined;
    if (row && rowField) {
      const target = list === 'levels' ? placed.levelRows : placed.ruleRows;
      target[row.id] = { [rowField]: message, ...target[row.id] };
    } else if (path === 'name' || path === 'handle' || path === 'description') {
      placed.fields[path] ??= message;
    } else if (path.startsWith('applies_to')) {
      placed.fields.applies_to ??= message;
    } else {
      placed.form.push(message);
    }
  }
  const marked = Object.keys(placed.fields).length + Object.keys(placed.levelRows).length;
  if (marked + Object.keys(placed.ruleRows).length > 0) placed.form.unshift(FIX_FIELDS);
  return placed;
}
