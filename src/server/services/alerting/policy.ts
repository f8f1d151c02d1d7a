/**
 * An alert policy as stored (alert_policies: JSON columns) and as the lifecycle and escalation read it: rules by
 * severity, escalation levels in seconds (the API takes minutes, or seconds in test configuration), targets by id.
 */
import {
  orderLevels,
  type AlertSeverity,
  type EscalationLevel,
  type EscalationTarget,
} from '../../../domain/alerts.js';
import type { AlertPolicyRow } from '../../db/schema.js';

export interface PolicyRule {
  severities: AlertSeverity[];
  channels: string[];
}

export interface StoredPolicy {
  rules: PolicyRule[];
  /** In the order they are told. */
  escalation: EscalationLevel[];
  repeat: number;
  notifyWhenImpacted: boolean;
}

/** No policy at all: nothing is routed, nobody is paged (the bell still rings for the team). */
export const NO_POLICY: StoredPolicy = { rules: [], escalation: [], repeat: 0, notifyWhenImpacted: true };

interface StoredLevel {
  after_seconds: number;
  targets: EscalationTarget[];
}

export function parsePolicy(row: AlertPolicyRow | undefined): StoredPolicy {
  if (!row) return NO_POLICY;
  const levels = (JSON.parse(row.escalation) as StoredLevel[]).map((level) => ({
    afterSeconds: level.after_seconds,
    targets: level.targets,
  }));
  return {
    rules: JSON.parse(row.rules) as PolicyRule[],
    escalation: orderLevels(levels),
    repeat: row.repeat,
    notifyWhenImpacted: row.notify_when_impacted === 1,
  };
}

/** The columns that store a policy. */
export function policyColumns(policy: StoredPolicy) {
  const levels: StoredLevel[] = orderLevels(policy.escalation).map((level) => ({
    after_seconds: level.afterSeconds,
    targets: level.targets,
  }));
  return {
    rules: JSON.stringify(policy.rules),
    escalation: JSON.stringify(levels),
    repeat: policy.repeat,
    notify_when_impacted: policy.notifyWhenImpacted ? 1 : 0,
  };
}
