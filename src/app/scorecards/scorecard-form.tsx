import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import type { Scorecard } from '../../contract/scorecards.js';
import {
  STAGES,
  stageLabel,
  VISIBILITIES,
  visibilityLabel,
  type Stage,
  type Visibility,
} from '../../domain/catalogue.js';
import { SCORECARD_EVALUATORS } from '../../domain/scorecards.js';
import { useApi } from '../session/use-api.js';
import { TextField, useShownErrors } from '../components/form.js';
import { EditorFrame, EditorNameFields, firstErrorId, useEditorSave } from '../components/editor-form.js';
import { FieldError, FormCard, moveItem, RowButton } from '../components/form-parts.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { TextAreaField } from '../components/text-area-field.js';
import {
  bodyOf,
  draftErrors,
  draftOf,
  draftValid,
  EVALUATOR_LABELS,
  EVALUATOR_PARAM,
  keyOf,
  MAX_LEVELS,
  MAX_RULES,
  newLevel,
  newRule,
  placeErrors,
  withEvaluator,
  type DraftLevel,
  type DraftRule,
  type RowErrors,
  type ScorecardDraft,
} from './scorecard-draft.js';
import { createScorecard, scorecardEditorPath, storeScorecard, updateScorecard } from './scorecards-api.js';

export const SCORECARD_CREATED = 'Scorecard was created';
export const SCORECARD_UPDATED = 'Scorecard was updated';

type Field = 'name' | 'handle' | 'description';
const FIELD_IDS: Record<Field, string> = {
  name: 'scorecard-name',
  handle: 'scorecard-handle',
  description: 'scorecard-description',
};

/** How a row is named in buttons and announcements: by its name, else its place. */
const rowTitle = (kind: 'level' | 'rule', row: { name: string }, index: number) =>
  row.name.trim() ? `${kind} ${row.name.trim()}` : `${kind} ${index + 1}`;

/** A set of checkboxes over `values` (every one unticked: no limit on that part). */
function ChoiceSet<T extends string>({
  id,
  legend,
  values,
  label,
  chosen,
  onChange,
}: {
  id: string;
  legend: string;
  values: readonly T[];
  label(value: T): string;
  chosen: readonly T[];
  onChange(chosen: T[]): void;
}) {
  return (
    <fieldset className="beacon-editor-fieldset flex flex-column gap-2">
      <legend className="font-semibold mb-2">{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {values.map((value) => (
          <div key={value} className="flex align-items-center gap-2">
            <Checkbox
              inputId={`${id}-${value}`}
              checked={chosen.includes(value)}
              onChange={(event) =>
                onChange(
                  event.checked
                    ? values.filter((v) => v === value || chosen.includes(v))
                    : chosen.filter((v) => v !== value),
                )
              }
            />
            <label htmlFor={`${id}-${value}`}>{label(value)}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** The teams a scorecard is limited to: chips with a remove button, and a search to add one. */
function TeamsField({ teams, onChange }: { teams: string[]; onChange(teams: string[]): void }) {
  const api = useApi();
  const [adding, setAdding] = useState(false);
  const [picked, setPicked] = useState<ProfileRef | string>('');
  const [names, setNames] = useState<Record<string, string>>({});
  const choice = chosenProfile(picked);
  const close = () => {
    setAdding(false);
    setPicked('');
  };
  return (
    <div className="flex flex-column gap-2">
      <span className="font-semibold">Teams</span>
      {teams.length === 0 ? (
        <p className="m-0 text-600 text-sm">Every team.</p>
      ) : (
        <ul className="list-none p-0 m-0 flex flex-wrap gap-2" aria-label="Teams">
          {teams.map((handle) => (
            <li key={handle} className="beacon-scorecard-chip">
              <span className="beacon-scorecard-chip-name">{names[handle] ?? handle}</span>
              <RowButton
                id={`scorecard-team-${handle}-remove`}
                icon="pi-times"
                label={`Remove team ${names[handle] ?? handle}`}
                danger
                onClick={() => onChange(teams.filter((team) => team !== handle))}
              />
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button
          type="button"
          id="scorecard-add-team"
          label="Add team"
          icon="pi pi-plus"
          outlined
          size="small"
          onClick={() => setAdding(true)}
        />
      </div>
      {adding && (
        <PickerDialog
          header="Add team"
          onClose={close}
          pending={false}
          disabled={!choice}
          onSubmit={() => {
            if (!choice) return;
            if (!teams.includes(choice.handle)) onChange([...teams, choice.handle]);
            setNames((current) => ({ ...current, [choice.handle]: choice.name }));
            close();
          }}
          label="Team"
          inputId="scorecard-team-search"
        >
          <ProfileSearch
            inputId="scorecard-team-search"
            value={picked}
            onChange={setPicked}
            placeholder="Search teams"
            search={async (q) =>
              (await api.call(autocompleteOperations.autocompleteTeams, { query: { q } })).filter(
                (team) => !teams.includes(team.handle),
              )
            }
            autoFocus
          />
        </PickerDialog>
      )}
    </div>
  );
}

/** Moves, removes and focus for an ordered list of rows; each change is announced. */
function useRowList<R extends { id: string; name: string }>(
  kind: 'level' | 'rule',
  rows: R[],
  onChange: (rows: R[]) => void,
  announce: (text: string) => void,
) {
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  return {
    focus: (id: string) => {
      focusNext.current = id;
    },
    move(index: number, by: number) {
      const row = rows[index]!;
      const to = index + by;
      onChange(moveItem(rows, index, by));
      const edge = to === 0 ? 'down' : to === rows.length - 1 ? 'up' : by < 0 ? 'up' : 'down';
      focusNext.current = `scorecard-${kind}-${row.id}-${edge}`;
      announce(`Moved ${rowTitle(kind, row, index)} to position ${to + 1} of ${rows.length}`);
    },
    remove(index: number, fallbackFocus: string) {
      const row = rows[index]!;
      onChange(rows.filter((other) => other.id !== row.id));
      const neighbour = rows[index + 1] ?? rows[index - 1];
      focusNext.current = neighbour ? `scorecard-${kind}-${neighbour.id}-name` : fallbackFocus;
      announce(`Removed ${rowTitle(kind, row, index)}`);
    },
  };
}

/** A row's buttons: up, down and remove, each named after the row. */
function RowMoves({
  kind,
  id,
  title,
  index,
  count,
  list,
  fallback,
  removeLabel,
  removeDisabled = false,
}: {
  kind: 'level' | 'rule';
  id: string;
  title: string;
  index: number;
  count: number;
  list: { move(index: number, by: number): void; remove(index: number, fallbackFocus: string): void };
  /** Where focus goes when the last row is removed. */
  fallback: string;
  removeLabel?: string | undefined;
  removeDisabled?: boolean;
}) {
  return (
    <div className="beacon-editor-actions">
      <RowButton
        id={`scorecard-${kind}-${id}-up`}
        icon="pi-arrow-up"
        label={`Move ${title} up`}
        disabled={index === 0}
        onClick={() => list.move(index, -1)}
      />
      <RowButton
        id={`scorecard-${kind}-${id}-down`}
        icon="pi-arrow-down"
        label={`Move ${title} down`}
        disabled={index === count - 1}
        onClick={() => list.move(index, 1)}
      />
      <RowButton
        id={`scorecard-${kind}-${id}-remove`}
        icon="pi-trash"
        label={removeLabel ?? `Remove ${title}`}
        danger
        disabled={removeDisabled}
        onClick={() => list.remove(index, fallback)}
      />
    </div>
  );
}

/** A row's name and key: a new row's key follows its name until typed; a saved one's is fixed. */
function NameAndKey<R extends DraftLevel | DraftRule>({
  kind,
  row,
  errors,
  onChange,
}: {
  kind: 'level' | 'rule';
  row: R;
  errors: RowErrors | undefined;
  onChange(row: R): void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <div className="flex-1 beacon-editor-grow">
        <TextField
          id={`scorecard-${kind}-${row.id}-name`}
          label={kind === 'level' ? 'Level name' : 'Rule name'}
          value={row.name}
          autoComplete="off"
          error={errors?.name ?? null}
          onChange={(name) => onChange({ ...row, name, ...(row.keyEdited ? {} : { key: keyOf(name) }) })}
        />
      </div>
      <div className="flex-1 beacon-editor-grow">
        <TextField
          id={`scorecard-${kind}-${row.id}-key`}
          label="Key"
          value={row.key}
          autoComplete="off"
          disabled={row.saved}
          hint={row.saved ? 'Fixed once saved: results and exemptions name it.' : undefined}
          error={errors?.key ?? null}
          onChange={(key) => onChange({ ...row, key: key.toLowerCase().replace(/[^a-z0-9_-]/g, ''), keyEdited: true })}
        />
      </div>
    </div>
  );
}

function LevelsEditor({
  levels,
  rules,
  errors,
  onChange,
  announce,
}: {
  levels: DraftLevel[];
  rules: DraftRule[];
  errors: Record<string, RowErrors>;
  onChange(levels: DraftLevel[]): void;
  announce(text: string): void;
}) {
  const list = useRowList('level', levels, onChange, announce);
  const set = (level: DraftLevel) => onChange(levels.map((other) => (other.id === level.id ? level : other)));
  return (
    <>
      <p className="m-0 text-700">
        Lowest first. A service reaches a level when every rule of it, and of the levels below, passes.
      </p>
      <ol className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Levels">
        {levels.map((level, index) => {
          const title = rowTitle('level', level, index);
          const used = rules.some((rule) => rule.level === level.id);
          return (
            <li key={level.id}>
              <fieldset className="beacon-editor-group flex flex-column gap-2">
                <legend className="font-semibold px-1">{`Level ${index + 1}`}</legend>
                <NameAndKey kind="level" row={level} errors={errors[level.id]} onChange={set} />
                <RowMoves
                  kind="level"
                  id={level.id}
                  title={title}
                  index={index}
                  count={levels.length}
                  list={list}
                  fallback="scorecard-add-level"
                  removeLabel={used ? `Remove ${title} (move its rules first)` : undefined}
                  removeDisabled={used || levels.length === 1}
                />
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          id="scorecard-add-level"
          label="Add level"
          icon="pi pi-plus"
          outlined
          disabled={levels.length >= MAX_LEVELS}
          onClick={() => {
            const level = newLevel();
            onChange([...levels, level]);
            list.focus(`scorecard-level-${level.id}-name`);
          }}
        />
      </div>
    </>
  );
}

function ParamField({ rule, error, onChange }: { rule: DraftRule; error?: string; onChange(param: string): void }) {
  const spec = EVALUATOR_PARAM[rule.evaluator];
  if (!spec) return null;
  const id = `scorecard-rule-${rule.id}-param`;
  if (spec.kind === 'number') {
    return (
      <div className="beacon-scorecard-narrow">
        <TextField
          id={id}
          label={spec.label}
          type="number"
          min={spec.min}
          max={spec.max}
          value={rule.param}
          hint={spec.hint}
          error={error ?? null}
          onChange={onChange}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-column gap-2">
      <LabelledSelect
        id={id}
        label={spec.label}
        value={rule.param}
        options={spec.options.map((option) => ({
          label: option.charAt(0).toUpperCase() + option.slice(1),
          value: option,
        }))}
        onChange={onChange}
      />
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

function RulesEditor({
  rules,
  levels,
  errors,
  onChange,
  announce,
}: {
  rules: DraftRule[];
  levels: DraftLevel[];
  errors: Record<string, RowErrors>;
  onChange(rules: DraftRule[]): void;
  announce(text: string): void;
}) {
  const list = useRowList('rule', rules, onChange, announce);
  const set = (rule: DraftRule) => onChange(rules.map((other) => (other.id === rule.id ? rule : other)));
  const levelOptions = levels.map((level, index) => ({
    label: level.name.trim() || `Level ${index + 1}`,
    value: level.id,
  }));
  const evaluatorOptions = SCORECARD_EVALUATORS.map((evaluator) => ({
    label: EVALUATOR_LABELS[evaluator],
    value: evaluator,
  }));
  return (
    <>
      <p className="m-0 text-700">
        Each rule checks one thing of every service the scorecard applies to. Its weight counts in the score.
      </p>
      {rules.length === 0 ? (
        <p className="m-0 text-600">No rules yet. Add a rule, then pick what it checks.</p>
      ) : (
        <ol className="list-none p-0 m-0 flex flex-column gap-3" aria-label="Rules">
          {rules.map((rule, index) => {
            const title = rowTitle('rule', rule, index);
            const rowErrors = errors[rule.id];
            return (
              <li key={rule.id}>
                <fieldset className="beacon-editor-group flex flex-column gap-2">
                  <legend className="font-semibold px-1">{`Rule ${index + 1}`}</legend>
                  <NameAndKey kind="rule" row={rule} errors={rowErrors} onChange={set} />
                  <div className="flex flex-wrap gap-2 align-items-start">
                    <div className="flex flex-column gap-2 beacon-editor-grow">
                      <LabelledSelect
                        id={`scorecard-rule-${rule.id}-evaluator`}
                        label="Checks"
                        value={rule.evaluator}
                        options={evaluatorOptions}
                        onChange={(evaluator) => set(withEvaluator(rule, evaluator))}
                      />
                    </div>
                    <ParamField
                      rule={rule}
                      {...(rowErrors?.param ? { error: rowErrors.param } : {})}
                      onChange={(param) => set({ ...rule, param })}
                    />
                  </div>
                  <div className="flex flex-wrap gap-2 align-items-start">
                    <div className="flex flex-column gap-2 beacon-editor-grow">
                      <LabelledSelect
                        id={`scorecard-rule-${rule.id}-level`}
                        label="Level"
                        value={rule.level}
                        options={levelOptions}
                        onChange={(level) => set({ ...rule, level })}
                      />
                      <FieldError id={`scorecard-rule-${rule.id}-level-error`} error={rowErrors?.level} />
                    </div>
                    <div className="beacon-scorecard-narrow">
                      <TextField
                        id={`scorecard-rule-${rule.id}-weight`}
                        label="Weight"
                        type="number"
                        min={1}
                        max={100}
                        value={rule.weight}
                        error={rowErrors?.weight ?? null}
                        onChange={(weight) => set({ ...rule, weight })}
                      />
                    </div>
                  </div>
                  <TextAreaField
                    id={`scorecard-rule-${rule.id}-remediation`}
                    label="What to do when it fails"
                    value={rule.remediation}
                    rows={2}
                    hint="Shown on the service's Scorecards tab; optional."
                    errors={rowErrors?.remediation ? [rowErrors.remediation] : []}
                    onChange={(remediation) => set({ ...rule, remediation })}
                  />
                  <RowMoves
                    kind="rule"
                    id={rule.id}
                    title={title}
                    index={index}
                    count={rules.length}
                    list={list}
                    fallback="scorecard-add-rule"
                  />
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <div>
        <Button
          type="button"
          id="scorecard-add-rule"
          label="Add rule"
          icon="pi pi-plus"
          outlined
          disabled={rules.length >= MAX_RULES || levels.length === 0}
          onClick={() => {
            const rule = newRule(levels[0]!.id);
            onChange([...rules, rule]);
            list.focus(`scorecard-rule-${rule.id}-name`);
          }}
        />
      </div>
    </>
  );
}

/**
 * A scorecard's definition (docs/decisions.md#slos-and-scorecards), new or saved: its name, which services it applies
 * to, its levels and its rules. The handle follows the name while new and is fixed once saved. Errors show by their
 * fields once touched or after a submit; the server's by the field or row they name.
 */
export function ScorecardForm({ scorecard }: { scorecard: Scorecard | null }) {
  const [draft, setDraft] = useState<ScorecardDraft>(() => draftOf(scorecard));
  const editor = useEditorSave({
    saved: scorecard,
    name: draft.name,
    create: (api, handle, sent: ScorecardDraft) => createScorecard(api, { handle, ...bodyOf(sent) }),
    update: (api, handle, sent: ScorecardDraft) => updateScorecard(api, handle, bodyOf(sent)),
    store: storeScorecard,
    created: SCORECARD_CREATED,
    updated: SCORECARD_UPDATED,
    pathOf: scorecardEditorPath,
    refusal: placeErrors,
  });
  const { creating, handle, refused, setRefused } = editor;
  const errors = draftErrors(draft, { handle, creating });
  const form = useShownErrors({ name: errors.name, handle: errors.handle, description: errors.description });
  const [attempted, setAttempted] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const change = (fields: Partial<ScorecardDraft>) => {
    setDraft((current) => ({ ...current, ...fields }));
    if (refused) setRefused({ ...refused, levelRows: {}, ruleRows: {}, fields: {} });
  };
  // Row errors show after a submit (a new row is not red at once), the server's always.
  const rowErrors = (mine: Record<string, RowErrors>, theirs: Record<string, RowErrors> | undefined) =>
    attempted ? { ...theirs, ...mine } : (theirs ?? {});

  function submit(event: FormEvent) {
    form.attempt();
    setAttempted(true);
    editor.submit(event, draft, {
      valid: draftValid(draft, errors),
      firstError: () =>
        firstErrorId(FIELD_IDS, errors) ??
        draft.levels.map((level) => errors.levelRows[level.id] && `scorecard-level-${level.id}-name`).find(Boolean) ??
        draft.rules.map((rule) => errors.ruleRows[rule.id] && `scorecard-rule-${rule.id}-name`).find(Boolean),
    });
  }

  return (
    <EditorFrame
      label="Scorecard"
      onSubmit={submit}
      submitLabel={creating ? 'Create scorecard' : 'Save'}
      pending={editor.pending}
      errors={refused?.form}
    >
      <FormCard title="Scorecard" id="scorecard-general">
        <EditorNameFields
          editor={editor}
          form={form}
          nameKey="name"
          ids={FIELD_IDS}
          nameLabel="Name"
          name={draft.name}
          onName={(name) => change({ name })}
          noun="scorecard"
          address={(value) => `/scorecards/${value}`}
          description={draft.description}
          onDescription={(description) => change({ description })}
          descriptionRows={2}
          descriptionHint="What the scorecard asks of services, shown with it; optional."
        />
      </FormCard>

      <FormCard title="Applies to" id="scorecard-applies-to">
        <p className="m-0 text-700">
          Services that match every part chosen here. A part with nothing chosen takes all.
        </p>
        <ChoiceSet<Stage>
          id="scorecard-stage"
          legend="Stages"
          values={STAGES}
          label={stageLabel}
          chosen={draft.stages}
          onChange={(stages) => change({ stages })}
        />
        <ChoiceSet<Visibility>
          id="scorecard-visibility"
          legend="Visibility"
          values={VISIBILITIES}
          label={visibilityLabel}
          chosen={draft.visibility}
          onChange={(visibility) => change({ visibility })}
        />
        <TeamsField teams={draft.teams} onChange={(teams) => change({ teams })} />
        <FieldError id="scorecard-applies-to-error" error={refused?.fields.applies_to} />
      </FormCard>

      <FormCard title="Levels" id="scorecard-levels">
        <LevelsEditor
          levels={draft.levels}
          rules={draft.rules}
          errors={rowErrors(errors.levelRows, refused?.levelRows)}
          onChange={(levels) => change({ levels })}
          announce={setAnnouncement}
        />
        <FieldError id="scorecard-levels-error" error={attempted ? errors.levels : null} />
      </FormCard>

      <FormCard title="Rules" id="scorecard-rules">
        <RulesEditor
          rules={draft.rules}
          levels={draft.levels}
          errors={rowErrors(errors.ruleRows, refused?.ruleRows)}
          onChange={(rules) => change({ rules })}
          announce={setAnnouncement}
        />
      </FormCard>

      <p className="beacon-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </EditorFrame>
  );
}
