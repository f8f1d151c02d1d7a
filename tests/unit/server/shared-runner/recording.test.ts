import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../../../src/domain/check-kinds.js';
import type { CheckState } from '../../../../src/server/jobs/shared-runner/checks.js';
import { applyRun } from '../../../../src/server/jobs/shared-runner/recording.js';

const state = (over: Partial<CheckState> = {}): CheckState => ({
  workspaceId: 'w',
  serviceId: 's',
  name: 'Check',
  allowedFailures: 1,
  recoverAfter: 2,
  importance: 'critical',
  consecutiveFailures: 0,
  recovering: 0,
  failing: false,
  severity: null,
  seen: {},
  version: 'v1',
  ...over,
});
const run = (success: boolean, over: Partial<CheckRun> = {}) => ({
  run: { start: 0, time: 5, success, ...over } as CheckRun,
  seen: { 'json:$.v': success ? 'ok' : 'bad' },
});

describe('a run of a held check', () => {
  it('fails the check once more than its allowed failures came in a row, and says so once', () => {
    const check = state();
    expect(applyRun(check, run(false))).toBe(false);
    expect(check).toMatchObject({ consecutiveFailures: 1, failing: false, severity: 'critical' });
    expect(applyRun(check, run(false))).toBe(true);
    expect(check.failing).toBe(true);
    expect(applyRun(check, run(false))).toBe(false);
  });

  it('keeps what the run saw, for `changed`', () => {
    const check = state();
    applyRun(check, run(true));
    expect(check.seen).toEqual({ 'json:$.v': 'ok' });
  });

  it('tells the service when a failing check fails at another severity', () => {
    const check = state({ failing: true, consecutiveFailures: 3, severity: 'critical' });
    expect(applyRun(check, run(false, { severity: 'warning' }))).toBe(true);
    expect(check.severity).toBe('warning');
    expect(applyRun(check, run(false, { severity: 'warning' }))).toBe(false);
  });

  it('recovers after `recover_after` successes in a row', () => {
    const check = state({ failing: true, consecutiveFailures: 2, severity: 'critical' });
    expect(applyRun(check, run(true))).toBe(false);
    expect(applyRun(check, run(true))).toBe(true);
    expect(check.failing).toBe(false);
  });
});
