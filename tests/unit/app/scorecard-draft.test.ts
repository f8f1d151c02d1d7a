import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/app/api/client.js';
import {
  bodyOf,
  draftErrors,
  draftOf,
  draftValid,
  FIX_FIELDS,
  HANDLE_IN_USE,
  HANDLE_RESERVED,
  KEY_TAKEN,
  newLevel,
  newRule,
  placeErrors,
  WEIGHT_RULE,
  withEvaluator,
  type ScorecardDraft,
} from '../../../src/app/scorecards/scorecard-draft.js';
import { scorecardCreate, type Scorecard } from '../../../src/contract/scorecards.js';

const saved: Scorecard = {
  handle: 'production-ready',
  name: 'Production ready',
  description: 'What a live service needs',
  applies_to: { stages: ['live'], teams: ['payments'] },
  levels: [
    { key: 'bronze', name: 'Bronze' },
    { key: 'gold', name: 'Gold' },
  ],
  rules: [
    {
      key: 'runbook',
      name: 'Runbook linked',
      level: 'bronze',
      weight: 2,
      evaluator: 'has_link',
      params: { kind: 'runbook' },
      remediation: 'Add a link named Runbook',
    },
    {
      key: 'quiet',
      name: 'No failing check for an hour',
      level: 'gold',
      weight: 1,
      evaluator: 'no_failing_checks',
      params: { minutes: 60 },
      remediation: null,
    },
  ],
  distribution: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

function ready(draft: ScorecardDraft): ScorecardDraft {
  return { ...draft, name: draft.name || 'Basics' };
}

describe('the scorecard draft', () => {
  it('gives back a saved scorecard exactly as it was, and the contract takes it', () => {
    const body = bodyOf(draftOf(saved));
    expect(body).toEqual({
      name: saved.name,
      description: saved.description,
      applies_to: saved.applies_to,
      levels: saved.levels,
      rules: saved.rules,
    });
    expect(scorecardCreate.safeParse({ handle: saved.handle, ...body }).success).toBe(true);
  });

  it('starts a new scorecard with three levels whose keys follow their names, and no rules', () => {
    const draft = draftOf(null);
    expect(draft.levels.map((level) => [level.key, level.name, level.saved])).toEqual([
      ['bronze', 'Bronze', false],
      ['silver', 'Silver', false],
      ['gold', 'Gold', false],
    ]);
    expect(draft.rules).toEqual([]);
    // Nothing to send yet: the name is missing.
    const errors = draftErrors(draft, { handle: '', creating: true });
    expect(errors.name).toBe('This field is required');
    expect(draftValid(draft, errors)).toBe(false);
  });

  it('names a rule’s level by the row, so renaming the level’s key moves its rules with it', () => {
    const draft = ready(draftOf(null));
    const rule = { ...newRule(draft.levels[1]!.id), key: 'described', name: 'Description set' };
    const renamed = {
      ...draft,
      rules: [rule],
      levels: draft.levels.map((l, i) => (i === 1 ? { ...l, key: 'silver_plus' } : l)),
    };
    expect(bodyOf(renamed).rules[0]).toMatchObject({
      level: 'silver_plus',
      evaluator: 'field_set',
      params: { field: 'description' },
    });
  });

  it('sends each evaluator’s parameter in its type, and a new evaluator starts from its default', () => {
    const draft = ready(draftOf(null));
    const level = draft.levels[0]!.id;
    const rules = [
      { ...withEvaluator(newRule(level), 'cert_days_left'), key: 'cert', name: 'Cert' },
      { ...withEvaluator(newRule(level), 'no_open_incident'), key: 'calm', name: 'Calm' },
      { ...withEvaluator(newRule(level), 'slo_met'), key: 'slo', name: 'SLO' },
    ];
    expect(bodyOf({ ...draft, rules }).rules.map((rule) => rule.params)).toEqual([
      { min: 14 },
      { min_severity: 'error' },
      {},
    ]);
    expect(
      draftValid({ ...draft, rules }, draftErrors({ ...draft, rules }, { handle: 'basics', creating: true })),
    ).toBe(true);
  });

  it('marks the row of a repeated key, a weight out of range and a parameter out of bounds', () => {
    const draft = ready(draftOf(null));
    const level = draft.levels[0]!.id;
    const one = { ...newRule(level), key: 'same', name: 'One' };
    const two = { ...newRule(level), key: 'same', name: 'Two', weight: '101' };
    const three = { ...withEvaluator(newRule(level), 'team_size'), key: 'team', name: 'Team', param: '0' };
    const withRules = { ...draft, rules: [one, two, three], levels: [...draft.levels, newLevel('Gold')] };
    const errors = draftErrors(withRules, { handle: 'basics', creating: true });
    expect(errors.ruleRows[one.id]).toEqual({ key: KEY_TAKEN });
    expect(errors.ruleRows[two.id]).toEqual({ key: KEY_TAKEN, weight: WEIGHT_RULE });
    expect(errors.ruleRows[three.id]).toEqual({ param: 'A whole number from 1 to 1000' });
    // The level added twice by name: both rows say so.
    const golds = withRules.levels.filter((l) => l.key === 'gold');
    expect(golds.map((l) => errors.levelRows[l.id]?.key)).toEqual([KEY_TAKEN, KEY_TAKEN]);
    expect(draftValid(withRules, errors)).toBe(false);
  });

  it('keeps the handle “new” for the editor’s own address', () => {
    expect(draftErrors(ready(draftOf(null)), { handle: 'new', creating: true }).handle).toBe(HANDLE_RESERVED);
  });

  it('places a refused save’s errors on the rows that were sent, and a taken handle on the handle', () => {
    const draft = draftOf(saved);
    const refused = new ApiError(400, {
      message: 'Invalid body: rules.1.params.minutes: Too big',
      errors: { 'rules.1.params.minutes': ['Too big'], 'levels.0.name': ['Too long'], name: ['Required'] },
    });
    const placed = placeErrors(refused, draft);
    expect(placed.ruleRows[draft.rules[1]!.id]).toEqual({ param: 'Too big' });
    expect(placed.levelRows[draft.levels[0]!.id]).toEqual({ name: 'Too long' });
    expect(placed.fields.name).toBe('Required');
    expect(placed.form).toEqual([FIX_FIELDS]);
    expect(placeErrors(new ApiError(409, { message: 'Another scorecard has this handle' }), draft).fields).toEqual({
      handle: HANDLE_IN_USE,
    });
    expect(placeErrors(new ApiError(403, { message: 'Only admins' }), draft).form).toEqual(['Only admins']);
  });
});
