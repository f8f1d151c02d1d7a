/**
 * The alert policy editor's draft (docs/api.md, "Alert policies"): what the form holds, what it sends, what is wrong
 * with it, and where the server's errors go. No React.
 */
import type { AlertPolicy } from '../../contract/alerts.js';
import { ALERT_SEVERITIES, MAX_ESCALATION_REPEAT, type AlertSeverity } from '../../domain/alerts.js';
import type { PolicyBody } from './alerts-api.js';

/** The contract's limits (contract/alerts.ts), as the form keeps to them. */
export const MAX_RULES = 20;
export const MAX_LEVELS = 10;
export const MAX_RULE_CHANNELS = 20;
export const MAX_TARGETS = 20;
export const MAX_AFTER_MINUTES = 1440;

export interface DraftRule {
  /** Stable across removals, so a rule keeps its controls' ids and its errors. */
  key: string;
  severities: AlertSeverity[];
  channels: string[];
}

export interface DraftLevel {
  key: string;
  /** As typed (a number field's text). */
  minutes: string;
  /** A delay set in seconds through the API that is no whole minute: kept as it is until the minutes are typed. */
  keptSeconds: number | null;
  users: string[];
  teams: string[];
  channels: string[];
}

export interface PolicyDraft {
  rules: DraftRule[];
  levels: DraftLevel[];
  repeat: string;
  notifyWhenImpacted: boolean;
}

let lastKey = 0;
const newKey = (prefix: string) => `${prefix}${++lastKey}`;

export const newRule = (): DraftRule => ({ key: newKey('r'), severities: ['critical'], channels: [] });
export const newLevel = (minutes = 0): DraftLevel => ({
  key: newKey('l'),
  minutes: String(minutes),
  keptSeconds: null,
  users: [],
  teams: [],
  channels: [],
});

export function draftOf(policy: AlertPolicy): PolicyDraft {
  return {
    rules: policy.rules.map((rule) => ({
      key: newKey('r'),
      severities: [...rule.severities],
      channels: [...rule.channels],
    })),
    levels: policy.escalation.map((level) => ({
      key: newKey('l'),
      minutes: String(level.after_minutes),
      keptSeconds: level.after_seconds % 60 === 0 ? null : level.after_seconds,
      users: level.targets.flatMap((target) => ('user' in target ? [target.user] : [])),
      teams: level.targets.flatMap((target) => ('team' in target ? [target.team] : [])),
      channels: level.targets.flatMap((target) => ('channel' in target ? [target.channel] : [])),
    })),
    repeat: String(policy.repeat),
    notifyWhenImpacted: policy.notify_when_impacted,
  };
}

/** The names of the users and teams a saved policy names, by handle (the chips show them; picked ones are learnt). */
export function targetNames(policy: AlertPolicy): { users: Record<string, string>; teams: Record<string, string> } {
  const names = { users: {} as Record<string, string>, teams: {} as Record<string, string> };
  for (const target of policy.escalation.flatMap((level) => level.targets)) {
    if ('user' in target) names.users[target.user] = target.name;
    else if ('team' in target) names.teams[target.team] = target.name;
  }
  return names;
}

const targetCount = (level: DraftLevel) => level.users.length + level.teams.length + level.channels.length;
const wholeIn = (text: string, min: number, max: number) => {
  const value = Number(text);
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max;
};

export function bodyOf(draft: PolicyDraft): PolicyBody {
  return {
    rules: draft.rules.map((rule) => ({
      // In the domain's order, whatever the order they were ticked in.
      severities: ALERT_SEVERITIES.filter((severity) => rule.severities.includes(severity)),
      channels: rule.channels,
    })),
    escalation: draft.levels.map((level) => ({
      ...(level.keptSeconds === null ? { after_minutes: Number(level.minutes) } : { after_seconds: level.keptSeconds }),
      targets: [
        ...level.users.map((user) => ({ user })),
        ...level.teams.map((team) => ({ team })),
        ...level.channels.map((channel) => ({ channel })),
      ],
    })),
    repeat: Number(draft.repeat),
    notify_when_impacted: draft.notifyWhenImpacted,
  };
}

// ---- errors, by the control they are about ----

/** The ids of the controls (the error of each shows under it; a refused submit focuses the first). */
export const policyIds = {
  severities: (rule: string) => `alert-rule-${rule}-severity-${ALERT_SEVERITIES[0]}`,
  severity: (rule: string, severity: AlertSeverity) => `alert-rule-${rule}-severity-${severity}`,
  ruleChannel: (rule: string, channel: string) => `alert-rule-${rule}-channel-${channel}`,
  ruleChannels: (rule: string) => `alert-rule-${rule}-channels`,
  minutes: (level: string) => `alert-level-${level}-minutes`,
  users: (level: string) => `alert-level-${level}-users`,
  teams: (level: string) => `alert-level-${level}-teams`,
  levelChannel: (level: string, channel: string) => `alert-level-${level}-channel-${channel}`,
  repeat: 'alert-policy-repeat',
  notify: 'alert-policy-notify',
  addRule: 'alert-policy-add-rule',
  addLevel: 'alert-policy-add-level',
} as const;

/** Where an error is shown, by a key of its own: a rule's or level's part (by its stable key), or the repeat. */
export const errorKeys = {
  severities: (rule: string) => `rules.${rule}.severities`,
  ruleChannels: (rule: string) => `rules.${rule}.channels`,
  after: (level: string) => `escalation.${level}.after`,
  targets: (level: string) => `escalation.${level}.targets`,
  repeat: 'repeat',
} as const;

export type PolicyErrors = Partial<Record<string, string>>;

export const SEVERITY_REQUIRED = 'Pick at least one severity';
export const TARGET_REQUIRED = 'Pick at least one user, team or channel';
export const MINUTES_INVALID = `A whole number of minutes from 0 to ${MAX_AFTER_MINUTES}`;
export const REPEAT_INVALID = `A whole number from 0 to ${MAX_ESCALATION_REPEAT}`;

/** What is wrong with the draft before it is sent (the server checks again). */
export function draftErrors(draft: PolicyDraft): PolicyErrors {
  const errors: PolicyErrors = {};
  for (const rule of draft.rules) {
    if (rule.severities.length === 0) errors[errorKeys.severities(rule.key)] = SEVERITY_REQUIRED;
    if (rule.channels.length > MAX_RULE_CHANNELS)
      errors[errorKeys.ruleChannels(rule.key)] = `At most ${MAX_RULE_CHANNELS} channels`;
  }
  for (const level of draft.levels) {
    if (level.keptSeconds === null && !wholeIn(level.minutes, 0, MAX_AFTER_MINUTES))
      errors[errorKeys.after(level.key)] = MINUTES_INVALID;
    const targets = targetCount(level);
    if (targets === 0) errors[errorKeys.targets(level.key)] = TARGET_REQUIRED;
    else if (targets > MAX_TARGETS)
      errors[errorKeys.targets(level.key)] = `At most ${MAX_TARGETS} users, teams and channels`;
  }
  if (!wholeIn(draft.repeat, 0, MAX_ESCALATION_REPEAT)) errors[errorKeys.repeat] = REPEAT_INVALID;
  return errors;
}

/** Every place an error shows, in the form's order, with the control a refused submit focuses. */
export function errorPlaces(draft: PolicyDraft): Array<{ key: string; focus: string }> {
  return [
    ...draft.rules.flatMap((rule) => [
      { key: errorKeys.severities(rule.key), focus: policyIds.severities(rule.key) },
      { key: errorKeys.ruleChannels(rule.key), focus: policyIds.severities(rule.key) },
    ]),
    ...draft.levels.flatMap((level) => [
      { key: errorKeys.after(level.key), focus: policyIds.minutes(level.key) },
      { key: errorKeys.targets(level.key), focus: policyIds.users(level.key) },
    ]),
    { key: errorKeys.repeat, focus: policyIds.repeat },
  ];
}

/** The id of the first control whose error is set. */
export const firstErrorFocus = (draft: PolicyDraft, errors: PolicyErrors) =>
  errorPlaces(draft).find((place) => errors[place.key])?.focus;

/**
 * A refused save's field errors (`rules.0.severities`, `escalation.1.targets.0.user`, `repeat`), placed on the draft
 * that was sent by its rules' and levels' keys; what names nothing the form shows goes to the form as a whole.
 */
export function placeErrors(
  fields: Record<string, string>,
  sent: PolicyDraft,
): { fields: PolicyErrors; form: string[] } {
  const placed: PolicyErrors = {};
  const form: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const [area, index, part] = path.split('.');
    const rule = area === 'rules' && index !== undefined ? sent.rules[Number(index)] : undefined;
    const level = area === 'escalation' && index !== undefined ? sent.levels[Number(index)] : undefined;
    const key = rule
      ? part === 'channels'
        ? errorKeys.ruleChannels(rule.key)
        : errorKeys.severities(rule.key)
      : level
        ? part === 'targets'
          ? errorKeys.targets(level.key)
          : errorKeys.after(level.key)
        : path === 'repeat'
          ? errorKeys.repeat
          : null;
    if (key) placed[key] ??= message;
    else form.push(message);
  }
  return { fields: placed, form };
}
