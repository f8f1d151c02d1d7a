import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionRefusal,
  alertSeverityOf,
  alertTitle,
  healthStep,
  nextEscalation,
  orderLevels,
  roundSeconds,
  severityRank,
  type AlertSeverity,
  type AlertState,
  type EscalationLevel,
} from '../../../src/domain/alerts.js';
import { HEALTHS, type Health } from '../../../src/domain/catalogue.js';

/** One service's alerts as the server keeps them, driven only by the domain's rules. */
interface Model {
  health: Health;
  active: { severity: AlertSeverity; state: AlertState } | null;
  opened: number;
}

type Input = { kind: 'health'; health: Health } | { kind: 'acknowledge' } | { kind: 'resolve' };

function apply(model: Model, input: Input): Model {
  if (input.kind === 'health') {
    const step = healthStep(model.active, model.health, input.health);
    const next = { ...model, health: input.health };
    if (step.kind === 'open')
      return { ...next, active: { severity: step.severity, state: 'open' }, opened: model.opened + 1 };
    if (step.kind === 'raise') return { ...next, active: { ...model.active!, severity: step.severity } };
    if (step.kind === 'resolve') return { ...next, active: null };
    return next;
  }
  if (!model.active || actionRefusal(model.active.state, input.kind)) return model;
  return input.kind === 'resolve'
    ? { ...model, active: null }
    : { ...model, active: { ...model.active, state: 'acknowledged' } };
}

const input: fc.Arbitrary<Input> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HEALTHS).map((health) => ({ kind: 'health' as const, health })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'acknowledge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resolve' as const }) },
);

describe('the alert state machine', () => {
  it('holds its promises over any sequence of health changes, acknowledgements and resolves', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 60 }), (inputs) => {
        let model: Model = { health: 'good', active: null, opened: 0 };
        for (const step of inputs) {
          const before = model;
          model = apply(model, step);
          const severity = alertSeverityOf(model.health);
          // Good (the service recovered) never leaves an alert active.
          if (model.health === 'good') expect(model.active).toBeNull();
          // Leaving good for a failing health always opens one, at that health's severity.
          if (step.kind === 'health' && before.health === 'good' && severity !== null) {
            expect(model.active).toEqual({ severity, state: 'open' });
          }
          // An active alert is never milder than the health the service is in.
          if (model.active && severity !== null) {
            expect(severityRank(model.active.severity)).toBeGreaterThanOrEqual(severityRank(severity));
          }
          // States only move forward: an acknowledged alert is never open again.
          if (before.active?.state === 'acknowledged' && model.active) expect(model.active.state).toBe('acknowledged');
          // A health change while active never opens a second alert.
          if (before.active && model.active) expect(model.opened).toBe(before.opened);
          // Acknowledging or resolving never opens one.
          if (step.kind !== 'health') expect(model.opened).toBe(before.opened);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('opens again only when health gets worse after a hand resolve', () => {
    const resolvedAtError = apply(
      apply({ health: 'good', active: null, opened: 0 }, { kind: 'health', health: 'error' }),
      {
        kind: 'resolve',
      },
    );
    expect(apply(resolvedAtError, { kind: 'health', health: 'warning' }).active).toBeNull();
    expect(apply(resolvedAtError, { kind: 'health', health: 'critical' }).active).toEqual({
      severity: 'critical',
      state: 'open',
    });
  });

  it('planned maintenance opens no alert', () => {
    expect(healthStep(null, 'good', 'maintenance')).toEqual({ kind: 'none' });
    expect(healthStep(null, 'maintenance', 'warning')).toEqual({ kind: 'open', severity: 'warning' });
  });

  it('refuses answers a state does not allow, in the product’s words', () => {
    expect(actionRefusal('open', 'acknowledge')).toBeNull();
    expect(actionRefusal('acknowledged', 'resolve')).toBeNull();
    expect(actionRefusal('acknowledged', 'acknowledge')).toBe('This alert is already acknowledged');
    expect(actionRefusal('resolved', 'resolve')).toBe('This alert is already resolved');
  });

  it('titles each action', () => {
    expect(alertTitle('trigger', 'Payments API', 'critical')).toBe('Payments API is critical');
    expect(alertTitle('raise', 'Payments API', 'error')).toBe('Payments API is now error');
    expect(alertTitle('resolve', 'Payments API', 'error')).toBe('Payments API: alert resolved');
  });
});

describe('escalation in time', () => {
  const levels = (...seconds: number[]): EscalationLevel[] =>
    seconds.map((afterSeconds) => ({ afterSeconds, targets: [] }));
  const steps = (list: EscalationLevel[], repeat: number) => {
    const out = [];
    let done: { round: number; level: number } | null = null;
    for (let step = nextEscalation(list, repeat, 0, done); step; step = nextEscalation(list, repeat, 0, done)) {
      out.push(step);
      done = step;
    }
    return out;
  };

  it('keeps the rhythm round after round: [0, 15 min] repeats at 30 and 45 min', () => {
    expect(steps(levels(0, 900), 1).map((s) => s.at / 1000)).toEqual([0, 900, 1800, 2700]);
    expect(roundSeconds(levels(300))).toBe(600);
    expect(steps(levels(300), 2).map((s) => s.at / 1000)).toEqual([300, 900, 1500]);
  });

  it('a single level at once never repeats, and no levels escalate to nobody', () => {
    expect(steps(levels(0), 5)).toHaveLength(1);
    expect(nextEscalation([], 3, 0, null)).toBeNull();
  });

  it('tells every level once per round, in time order, for any levels and repeat', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3600 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 10 }),
        (delays, repeat) => {
          const ordered = orderLevels(levels(...delays));
          const told = steps(ordered, repeat);
          const rounds = roundSeconds(ordered) > 0 ? repeat + 1 : 1;
          expect(told).toHaveLength(ordered.length * rounds);
          for (let i = 1; i < told.length; i++) expect(told[i]!.at).toBeGreaterThanOrEqual(told[i - 1]!.at);
        },
      ),
    );
  });
});
