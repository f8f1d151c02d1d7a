import { Tag } from 'primereact/tag';
import { levelName, RULE_STATE_LABELS, type RuleState, type ScorecardLevel } from '../../domain/scorecards.js';

const STATE_ICONS: Record<RuleState, { icon: string; colour: string }> = {
  pass: { icon: 'pi-check-circle', colour: 'var(--green-600)' },
  fail: { icon: 'pi-times-circle', colour: 'var(--red-600)' },
  unknown: { icon: 'pi-question-circle', colour: 'var(--gray-600)' },
  exempt: { icon: 'pi-minus-circle', colour: 'var(--blue-600)' },
};

/** A rule's state as an icon, its name for screen readers, and what the rule saw as the tooltip. */
export function RuleStateIcon({ state, value }: { state: RuleState; value?: string }) {
  const { icon, colour } = STATE_ICONS[state];
  const label = value ? `${RULE_STATE_LABELS[state]}: ${value}` : RULE_STATE_LABELS[state];
  return (
    <span className="inline-flex align-items-center" title={label}>
      <i className={`pi ${icon}`} style={{ color: colour }} aria-hidden="true" />
      <span className="beacon-visually-hidden">{label}</span>
    </span>
  );
}

/** The level a service reached, named; "No level" in grey. */
export function LevelTag({ levels, level }: { levels: readonly ScorecardLevel[]; level: string | null }) {
  return (
    <Tag
      value={levelName(levels, level)}
      severity={level === null ? 'secondary' : level === levels.at(-1)?.key ? 'success' : 'info'}
    />
  );
}
