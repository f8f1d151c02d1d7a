import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { AlertChannel, AlertPolicy } from '../../contract/alerts.js';
import { ALERT_SEVERITIES, MAX_ESCALATION_REPEAT, type AlertSeverity } from '../../domain/alerts.js';
import { healthLabel } from '../../domain/catalogue.js';
import { keys } from '../api/query-keys.js';
import { EditorFrame } from '../components/editor-form.js';
import { serverErrorsOf, TextField } from '../components/form.js';
import { FieldError } from '../components/form-parts.js';
import { useSnackbar } from '../components/snackbars.js';
import { useApi } from '../session/use-api.js';
import { saveTeamPolicy } from './alerts-api.js';
import { CHANNEL_KIND_LABELS } from './channel-kinds.js';
import {
  bodyOf,
  draftErrors,
  draftOf,
  errorKeys,
  firstErrorFocus,
  MAX_AFTER_MINUTES,
  MAX_LEVELS,
  MAX_RULES,
  newLevel,
  newRule,
  placeErrors,
  policyIds,
  targetNames,
  type DraftLevel,
  type DraftRule,
  type PolicyDraft,
  type PolicyErrors,
} from './policy-draft.js';
import { ProfileChips } from './profile-chips.js';

export const POLICY_SAVED = 'Alert policy saved';
const SAVE_FAILED = 'The alert policy was not saved';
export const FIX_FIELDS = 'The alert policy was not saved: please check the fields marked below.';

/** A channel as a choice names it: its name and kind, and whose it is when it is the team's own. */
const channelLabel = (channel: AlertChannel) =>
  `${channel.name} (${CHANNEL_KIND_LABELS[channel.kind]}${channel.team ? `, ${channel.team.name}` : ''})`;

/** A row of checkboxes in a fieldset with its legend and error. */
function Choices({
  legend,
  errorId,
  error,
  children,
}: {
  legend: string;
  errorId: string;
  error: string | null | undefined;
  children: ReactNode;
}) {
  return (
    <fieldset className="beacon-editor-fieldset flex flex-column gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2">{legend}</legend>
      <div className="beacon-alert-choices">{children}</div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

function Choice({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  return (
    <div>
      <Checkbox inputId={id} checked={checked} onChange={(event) => onChange(Boolean(event.checked))} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** The channels to tick: those offered, and any the draft names that is no longer offered (so it can be unticked). */
function ChannelChoices({
  legend,
  channels,
  chosen,
  idOf,
  errorId,
  error,
  onChange,
}: {
  legend: string;
  channels: readonly AlertChannel[];
  chosen: readonly string[];
  idOf(channel: string): string;
  errorId: string;
  error?: string | null | undefined;
  onChange(chosen: string[]): void;
}) {
  const gone = chosen.filter((id) => !channels.some((channel) => channel.id === id));
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((other) => other !== id));
  if (channels.length === 0 && gone.length === 0)
    return <p className="m-0 text-700 text-sm">{legend}: none yet. Add channels under Alert channels.</p>;
  return (
    <Choices legend={legend} errorId={errorId} error={error}>
      {channels.map((channel) => (
        <Choice
          key={channel.id}
          id={idOf(channel.id)}
          label={channelLabel(channel)}
          checked={chosen.includes(channel.id)}
          onChange={(on) => toggle(channel.id, on)}
        />
      ))}
      {gone.map((id) => (
        <Choice key={id} id={idOf(id)} label="A removed channel" checked onChange={(on) => toggle(id, on)} />
      ))}
    </Choices>
  );
}

function RuleFields({
  rule,
  index,
  channels,
  errors,
  onChange,
  onRemove,
}: {
  rule: DraftRule;
  index: number;
  channels: readonly AlertChannel[];
  errors: PolicyErrors;
  onChange(rule: DraftRule): void;
  onRemove(): void;
}) {
  const toggle = (severity: AlertSeverity, on: boolean) =>
    onChange({
      ...rule,
      severities: on ? [...rule.severities, severity] : rule.severities.filter((other) => other !== severity),
    });
  return (
    <fieldset className="beacon-alert-policy-group flex flex-column gap-3">
      <legend className="font-semibold px-1">{`Rule ${index + 1}`}</legend>
      <Choices
        legend="Severities"
        errorId={`${policyIds.severities(rule.key)}-error`}
        error={errors[errorKeys.severities(rule.key)]}
      >
        {ALERT_SEVERITIES.map((severity) => (
          <Choice
            key={severity}
            id={policyIds.severity(rule.key, severity)}
            label={healthLabel(severity)}
            checked={rule.severities.includes(severity)}
            onChange={(on) => toggle(severity, on)}
          />
        ))}
      </Choices>
      <ChannelChoices
        legend="Channels"
        channels={channels}
        chosen={rule.channels}
        idOf={(channel) => policyIds.ruleChannel(rule.key, channel)}
        errorId={`${policyIds.ruleChannels(rule.key)}-error`}
        error={errors[errorKeys.ruleChannels(rule.key)]}
        onChange={(chosen) => onChange({ ...rule, channels: chosen })}
      />
      <div>
        <Button
          type="button"
          label={`Remove rule ${index + 1}`}
          icon="pi pi-trash"
          text
          severity="danger"
          size="small"
          onClick={onRemove}
        />
      </div>
    </fieldset>
  );
}

function LevelFields({
  level,
  index,
  channels,
  names,
  errors,
  onChange,
  onRemove,
}: {
  level: DraftLevel;
  index: number;
  channels: readonly AlertChannel[];
  names: { users: Record<string, string>; teams: Record<string, string> };
  errors: PolicyErrors;
  onChange(level: DraftLevel): void;
  onRemove(): void;
}) {
  const targetsError = errors[errorKeys.targets(level.key)];
  const targetsErrorId = `${policyIds.users(level.key)}-targets-error`;
  return (
    <fieldset
      className="beacon-alert-policy-group flex flex-column gap-3"
      aria-describedby={targetsError ? targetsErrorId : undefined}
    >
      <legend className="font-semibold px-1">{`Level ${index + 1}`}</legend>
      <div className="beacon-alert-number">
        <TextField
          id={policyIds.minutes(level.key)}
          label="After (minutes)"
          type="number"
          min={0}
          max={MAX_AFTER_MINUTES}
          value={level.minutes}
          onChange={(minutes) => onChange({ ...level, minutes, keptSeconds: null })}
          {...(level.keptSeconds !== null ? { hint: `Set to ${level.keptSeconds} seconds through the API.` } : {})}
          error={errors[errorKeys.after(level.key)] ?? null}
        />
      </div>
      <ProfileChips
        id={policyIds.users(level.key)}
        label="Users"
        kind="users"
        handles={level.users}
        names={names.users}
        onChange={(users) => onChange({ ...level, users })}
        hint="Each gets a notification and a mail."
      />
      <ProfileChips
        id={policyIds.teams(level.key)}
        label="Teams"
        kind="teams"
        handles={level.teams}
        names={names.teams}
        onChange={(teams) => onChange({ ...level, teams })}
        hint="Every member gets a notification and a mail."
      />
      <ChannelChoices
        legend="Channels"
        channels={channels}
        chosen={level.channels}
        idOf={(channel) => policyIds.levelChannel(level.key, channel)}
        errorId={`${policyIds.users(level.key)}-channels-error`}
        onChange={(chosen) => onChange({ ...level, channels: chosen })}
      />
      <FieldError id={targetsErrorId} error={targetsError} />
      <div>
        <Button
          type="button"
          label={`Remove level ${index + 1}`}
          icon="pi pi-trash"
          text
          severity="danger"
          size="small"
          onClick={onRemove}
        />
      </div>
    </fieldset>
  );
}

/**
 * The team's policy as its admins edit it: rules (severities to channels), escalation levels (after how long, whom),
 * how often the levels repeat, and whether impacted teams hear too. Save puts the whole policy; a refused save shows
 * the server's errors by the rule or level they name and focuses the first.
 */
export function PolicyEditor({
  team,
  policy,
  channels,
}: {
  team: string;
  policy: AlertPolicy;
  channels: readonly AlertChannel[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [draft, setDraft] = useState<PolicyDraft>(() => draftOf(policy));
  const [names] = useState(() => targetNames(policy));
  const [attempted, setAttempted] = useState(false);
  const [refused, setRefused] = useState<{ fields: PolicyErrors; form: string[] } | null>(null);
  const own = draftErrors(draft);
  const errors: PolicyErrors = { ...refused?.fields, ...(attempted ? own : {}) };

  const save = useMutation({
    mutationFn: (sent: PolicyDraft) => saveTeamPolicy(api, team, bodyOf(sent)),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.teamAlertPolicy(team), saved);
      enqueue(POLICY_SAVED);
    },
    onError: (error, sent) => {
      const server = serverErrorsOf(error, SAVE_FAILED);
      const placed = placeErrors(server.fields, sent);
      const named = Object.keys(placed.fields).length > 0;
      setRefused({
        fields: placed.fields,
        form: named ? [FIX_FIELDS, ...placed.form] : [server.message, ...placed.form],
      });
      const first = firstErrorFocus(sent, placed.fields);
      if (first) document.getElementById(first)?.focus();
    },
  });

  function change(next: Partial<PolicyDraft>) {
    setDraft((current) => ({ ...current, ...next }));
    // The server's errors were about what was sent; once the draft changes they may no longer hold.
    if (refused) setRefused({ ...refused, fields: {} });
  }
  const setRule = (key: string, rule: DraftRule) =>
    change({ rules: draft.rules.map((other) => (other.key === key ? rule : other)) });
  const setLevel = (key: string, level: DraftLevel) =>
    change({ levels: draft.levels.map((other) => (other.key === key ? level : other)) });

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (save.isPending) return;
    const first = firstErrorFocus(draft, own);
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    setRefused(null);
    save.mutate(draft);
  }

  return (
    <EditorFrame
      label="Alert policy"
      onSubmit={submit}
      submitLabel="Save"
      pending={save.isPending}
      errors={refused?.form}
    >
      <ListSection
        id="alert-policy-rules"
        title="Rules"
        description="Which channels hear of an alert, by its severity."
        empty="No rules yet: alerts of this team reach only the bell."
        listLabel="Rules"
        items={draft.rules}
        renderItem={(rule, index, remove) => (
          <RuleFields
            rule={rule}
            index={index}
            channels={channels}
            errors={errors}
            onChange={(next) => setRule(rule.key, next)}
            onRemove={remove}
          />
        )}
        onRemove={(key) => change({ rules: draft.rules.filter((other) => other.key !== key) })}
        addId={policyIds.addRule}
        addLabel="Add rule"
        max={MAX_RULES}
        onAdd={() => change({ rules: [...draft.rules, newRule()] })}
      />
      <ListSection
        id="alert-policy-escalation"
        title="Escalation"
        description="Whom to tell, and when, while nobody acknowledges the alert."
        listLabel="Escalation levels"
        items={draft.levels}
        renderItem={(level, index, remove) => (
          <LevelFields
            level={level}
            index={index}
            channels={channels}
            names={names}
            errors={errors}
            onChange={(next) => setLevel(level.key, next)}
            onRemove={remove}
          />
        )}
        onRemove={(key) => change({ levels: draft.levels.filter((other) => other.key !== key) })}
        addId={policyIds.addLevel}
        addLabel="Add level"
        max={MAX_LEVELS}
        onAdd={() => {
          const last = draft.levels[draft.levels.length - 1];
          const after = last ? Number(last.minutes) + 15 : 0;
          change({
            levels: [...draft.levels, newLevel(Number.isFinite(after) ? Math.min(after, MAX_AFTER_MINUTES) : 0)],
          });
        }}
      >
        <div className="beacon-alert-number">
          <TextField
            id={policyIds.repeat}
            label="Repeat"
            type="number"
            min={0}
            max={MAX_ESCALATION_REPEAT}
            value={draft.repeat}
            onChange={(repeat) => change({ repeat })}
            hint={`Times the levels start again while the alert stays open (0 to ${MAX_ESCALATION_REPEAT}).`}
            error={errors[errorKeys.repeat] ?? null}
          />
        </div>
      </ListSection>
      <div className="flex flex-column gap-1">
        <div className="flex align-items-center gap-2">
          <Checkbox
            inputId={policyIds.notify}
            checked={draft.notifyWhenImpacted}
            onChange={(event) => change({ notifyWhenImpacted: Boolean(event.checked) })}
            aria-describedby={`${policyIds.notify}-hint`}
          />
          <label htmlFor={policyIds.notify}>Notify when impacted</label>
        </div>
        <small id={`${policyIds.notify}-hint`} className="text-600">
          Also tell this team when one of its services is impacted by the alert of a service it depends on.
        </small>
      </div>
    </EditorFrame>
  );
}

/**
 * A titled section of the policy: its list of items (rules or levels), each removable, and the button that adds one.
 * Removing an item moves the focus to that button, so a keyboard user is not left on nothing.
 */
function ListSection<T extends { key: string }>({
  id,
  title,
  description,
  empty,
  listLabel,
  items,
  renderItem,
  onRemove,
  addId,
  addLabel,
  max,
  onAdd,
  children,
}: {
  id: string;
  title: string;
  description: string;
  /** Shown instead of the list when it is empty; without it an empty list shows nothing. */
  empty?: string;
  listLabel: string;
  items: readonly T[];
  renderItem: (item: T, index: number, remove: () => void) => ReactNode;
  onRemove: (key: string) => void;
  addId: string;
  addLabel: string;
  max: number;
  onAdd: () => void;
  children?: ReactNode;
}) {
  return (
    <section className="flex flex-column gap-3" aria-labelledby={id}>
      <h3 id={id} className="text-lg font-semibold m-0">
        {title}
      </h3>
      <p className="m-0 text-700">{description}</p>
      {items.length === 0 ? (
        empty && <p className="m-0 text-600">{empty}</p>
      ) : (
        <ol className="list-none p-0 m-0 flex flex-column gap-3" aria-label={listLabel}>
          {items.map((item, index) => (
            <li key={item.key}>
              {renderItem(item, index, () => {
                onRemove(item.key);
                document.getElementById(addId)?.focus();
              })}
            </li>
          ))}
        </ol>
      )}
      <div>
        <Button
          type="button"
          id={addId}
          label={addLabel}
          icon="pi pi-plus"
          outlined
          disabled={items.length >= max}
          onClick={onAdd}
        />
      </div>
      {children}
    </section>
  );
}
