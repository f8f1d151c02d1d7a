import { describe, expect, it } from 'vitest';
import type { HealthCheckRow } from '../../../../src/server/db/schema.js';
import { newCheckState } from '../../../../src/server/jobs/shared-runner/scheduling.js';

const row = (over: Partial<HealthCheckRow> = {}) =>
  ({
    id: 'c1',
    workspace_id: 'w',
    service_id: 's',
    name: 'Check',
    allowed_failures: 1,
    recover_after: 2,
    importance: 'critical',
    failing: 0,
    failing_severity: null,
    ...over,
  }) as HealthCheckRow;

describe('a check new to this process', () => {
  it('continues its failure count from its latest outcomes (newest first)', () => {
    const state = newCheckState(row(), [false, false, true], { a: '1' });
    expect(state).toMatchObject({ consecutiveFailures: 2, failing: true, seen: { a: '1' }, version: '' });
  });

  it('stays failing while fewer than `recover_after` successes came since', () => {
    const state = newCheckState(row({ failing: 1, failing_severity: 'warning' }), [true, false], {});
    expect(state).toMatchObject({ failing: true, recovering: 1, severity: 'warning' });
  });

  it('starts fresh without results', () => {
    expect(newCheckState(row(), [], {})).toMatchObject({ consecutiveFailures: 0, failing: false });
  });
});
