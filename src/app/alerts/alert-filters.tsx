import { SelectButton } from 'primereact/selectbutton';
import { ALERT_SEVERITIES, ALERT_STATES, type AlertSeverity, type AlertState } from '../../domain/alerts.js';
import { healthLabel } from '../../domain/catalogue.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { DEFAULT_ALERT_STATES, type AlertFilter } from './alerts-api.js';
import { STATE_LABELS } from './alert-parts.js';

/**
 * The list's filter lives in the address (`?team=&severity=&state=`), so a reload, offline too, shows the same rows
 * (their stored page has the same key). No `state` is the default (open and acknowledged); an empty one is every state.
 */
const pick = <T extends string>(value: string | null, allowed: readonly T[]): T[] =>
  (value ?? '').split(',').filter((item): item is T => (allowed as readonly string[]).includes(item));

export function filterOf(search: URLSearchParams): AlertFilter {
  const state = search.get('state');
  return {
    team: search.get('team') ?? '',
    severities: pick(search.get('severity'), ALERT_SEVERITIES),
    states: state === null ? [...DEFAULT_ALERT_STATES] : pick(state, ALERT_STATES),
  };
}

/** The address's search for a filter: the default states are left out, so the plain /alerts is the default. */
export function searchOf(filter: AlertFilter): URLSearchParams {
  const search = new URLSearchParams();
  if (filter.team) search.set('team', filter.team);
  // In the order of the domain, whatever the order they were picked in (one key per choice).
  const severities = ALERT_SEVERITIES.filter((severity) => filter.severities.includes(severity));
  const states = ALERT_STATES.filter((state) => filter.states.includes(state));
  if (severities.length) search.set('severity', severities.join(','));
  const isDefault =
    states.length === DEFAULT_ALERT_STATES.length && DEFAULT_ALERT_STATES.every((s) => states.includes(s));
  if (!isDefault) search.set('state', states.join(','));
  return search;
}

/** The select's value for every team: the select shows no option for an empty value, and no handle is `*`. */
const ALL_TEAMS = '*';

export interface TeamChoice {
  handle: string;
  name: string;
}

/** Team, severity and state: a select and two rows of toggles (none pressed: all of them). */
export function AlertFilters({
  filter,
  teams,
  onChange,
}: {
  filter: AlertFilter;
  /** The teams offered: the user's own and those of the alerts listed. */
  teams: readonly TeamChoice[];
  onChange(filter: AlertFilter): void;
}) {
  const teamOptions = [
    { label: 'All teams', value: ALL_TEAMS },
    ...teams.map((team) => ({ label: team.name, value: team.handle })),
    ...(filter.team && !teams.some((team) => team.handle === filter.team)
      ? [{ label: filter.team, value: filter.team }]
      : []),
  ];
  return (
    <div className="beacon-alert-filters">
      <div className="flex flex-column gap-2 beacon-alert-select">
        <LabelledSelect
          id="alerts-team"
          label="Team"
          value={filter.team || ALL_TEAMS}
          options={teamOptions}
          onChange={(team) => onChange({ ...filter, team: team === ALL_TEAMS ? '' : team })}
          className="w-full"
        />
      </div>
      <div className="flex flex-column gap-2">
        <span id="alerts-severity-label" className="font-semibold">
          Severity
        </span>
        <SelectButton
          aria-labelledby="alerts-severity-label"
          multiple
          value={[...filter.severities]}
          options={ALERT_SEVERITIES.map((severity) => ({ label: healthLabel(severity), value: severity }))}
          onChange={(event) => onChange({ ...filter, severities: (event.value as AlertSeverity[] | null) ?? [] })}
        />
      </div>
      <div className="flex flex-column gap-2">
        <span id="alerts-state-label" className="font-semibold">
          State
        </span>
        <SelectButton
          aria-labelledby="alerts-state-label"
          multiple
          value={[...filter.states]}
          options={ALERT_STATES.map((state) => ({ label: STATE_LABELS[state], value: state }))}
          onChange={(event) => onChange({ ...filter, states: (event.value as AlertState[] | null) ?? [] })}
        />
      </div>
    </div>
  );
}
